import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { openDatabase, withoutStatementTimeouts } from '../../db/database.ts';
import { DataDirectoryBusyError } from '../../db/directory-lock.ts';
import { migrate } from '../../db/migrate.ts';
import { verifySeals } from './seals.ts';
import { verifyLedger } from './verify.ts';

// `npm run ledger:verify`: exit 0 when the books balance, 1 with a list of problems otherwise.
const config = loadConfig();

/**
 * The embedded database is one process's: while `npm start` runs on the same DATA_DIR this
 * command cannot open it. Say so and where the same check runs meanwhile (the operator
 * console's Ledger page, or GET /v1/operator/ledger-health), instead of a stack trace; exit 2.
 */
async function open() {
  try {
    return await openDatabase({
      databaseUrl: config.databaseUrl,
      namedStatements: config.databaseNamedStatements,
      pgliteDir: path.join(config.dataDir, 'db'),
      timeouts: withoutStatementTimeouts(config.databaseTimeouts),
    });
  } catch (error) {
    if (!(error instanceof DataDirectoryBusyError)) throw error;
    console.error(
      [
        `ledger:verify cannot open the embedded database in ${path.join(config.dataDir, 'db')}: the running Kestrel server holds it.`,
        'Either stop the server and run this again, or run the same check through the running server:',
        `  the operator console's Ledger page (${config.publicUrl}/ops/ledger), or GET ${config.publicUrl}/v1/operator/ledger-health with an operator's token.`,
        `(${error.message})`,
      ].join('\n'),
    );
    process.exit(2);
  }
}

const handle = await open();
try {
  await migrate(handle.db);
  const report = await verifyLedger(handle.db);
  console.log(
    `Ledger: ${report.transactions} transactions, ${report.postings} postings, ${report.walletAccounts} wallet balances checked.`,
  );
  if (report.problems.length === 0) {
    console.log('OK: every transaction sums to zero and every balance equals its postings.');
  } else {
    for (const problem of report.problems) console.error(`PROBLEM ${problem.kind}: ${problem.detail}`);
    process.exitCode = 1;
  }
  const sealed = await verifySeals(handle.db, config.secretKey);
  if (sealed.problems.length === 0) {
    console.log(`OK: ${sealed.seals} seals match the ledger, are signed with this server's seal key and chain without a gap.`);
  } else {
    for (const problem of sealed.problems) console.error(`PROBLEM seal: ${problem}`);
    process.exitCode = 1;
  }
} finally {
  await handle.close();
}

import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { openDatabase, withoutStatementTimeouts } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { verifyLedger } from './verify.ts';

// `npm run ledger:verify`: exit 0 when the books balance, 1 with a list of problems otherwise.
const config = loadConfig();
const handle = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'db'),
  timeouts: withoutStatementTimeouts(config.databaseTimeouts),
});
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
} finally {
  await handle.close();
}

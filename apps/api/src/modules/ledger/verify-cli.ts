import { loadConfig } from '../../config.ts';
import { openCommandDatabase } from '../../db/command-database.ts';
import { migrate } from '../../db/migrate.ts';
import { verifySeals } from './seals.ts';
import { verifyLedger } from './verify.ts';

// `npm run ledger:verify`: exit 0 when the books balance, 1 with a list of problems otherwise.
const config = loadConfig();

// While the server holds the embedded database: the same check runs in the operator console's
// Ledger page, or GET /v1/operator/ledger-health (exit 2).
const handle = await openCommandDatabase(config, {
  command: 'ledger:verify',
  instead: 'run the same check',
  where: `the operator console's Ledger page (${config.publicUrl}/ops/ledger), or GET ${config.publicUrl}/v1/operator/ledger-health with an operator's token.`,
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

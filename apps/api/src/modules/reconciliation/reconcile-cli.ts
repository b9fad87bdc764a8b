/**
 * `npm run reconcile -- --date YYYY-MM-DD`: reconciles one UTC day's card processor records
 * with the ledger (the same run as the daily job and the console's, stored as the day's run),
 * prints each difference still open and exits 1 when there are any, 0 when none; 2 for a
 * wrong date or a database this process cannot open. Without --date: yesterday (UTC).
 * Uses the same settings as the server; the embedded database takes one process at a time.
 */
import { parseArgs } from 'node:util';
import { reconciliationDay } from '@kestrel/shared';
import { loadConfig } from '../../config.ts';
import { openCommandDatabase } from '../../db/command-database.ts';
import { migrate } from '../../db/migrate.ts';
import { createSandboxProcessor } from '../payments/card-processor.ts';
import { dayAfter, dayHasBegun, reconcileDay, today } from './reconcile.ts';
import { reconcileReport } from './reconcile-report.ts';
import { listMismatches } from './reconciliation.repository.ts';
import { mismatchView } from './reconciliation.service.ts';

const usage = 'Usage: npm run reconcile -- [--date YYYY-MM-DD]   (a UTC day; default yesterday)';

let args;
try {
  args = parseArgs({ options: { date: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const day = args.date ?? dayAfter(today(), -1);
const parsed = reconciliationDay.safeParse(day);
if (!parsed.success) {
  console.error(`${parsed.error.issues[0]?.message ?? 'Enter a day as YYYY-MM-DD'}: ${day}\n${usage}`);
  process.exit(2);
}
if (!dayHasBegun(day)) {
  console.error(`${day} has not begun yet (days are UTC).\n${usage}`);
  process.exit(2);
}

const config = loadConfig();

// While the server holds the embedded database: say where the same run is (like ledger:verify).
const handle = await openCommandDatabase(config, {
  command: 'reconcile',
  instead: 'reconcile',
  where: `the operator console's Reconciliation page (${config.publicUrl}/ops/reconciliation), or POST ${config.publicUrl}/v1/operator/reconciliation/runs {"day":"${day}"} with an operator's token.`,
});
try {
  await migrate(handle.db);
  // The processor the server uses: the built-in sandbox, whose records are in this database.
  const processor = createSandboxProcessor(handle.db);
  const result = await reconcileDay({ db: handle.db, processor }, day, { trigger: 'cli', userId: null });
  const open = (await listMismatches(handle.db, processor.name, { status: 'open', day })).map(mismatchView);
  const report = reconcileReport(result, open, `${config.publicUrl}/ops/reconciliation?day=${day}`);
  const [summary, ...rest] = report.lines;
  console.log(summary);
  for (const line of rest) (report.ok ? console.log : console.error)(line);
  if (!report.ok) process.exitCode = 1;
} finally {
  await handle.close();
}

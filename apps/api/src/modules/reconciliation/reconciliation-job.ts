import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { dayRangeOf, type CardProcessor } from '../payments/card-processor.ts';
import { dayAfter, reconcileDay, today } from './reconcile.ts';
import { runTimes } from './reconciliation.repository.ts';
import { startPeriodicJob, type PeriodicJob } from '../../periodic-job.ts';

/*
 * The daily reconciliation: every API process checks now and then whether a UTC day has ended
 * (RECONCILE_AFTER_DAY_END_MS past midnight, so charges of the day's last seconds are in the
 * books) without a run made after its end, and reconciles it. A day's run is idempotent, so
 * two processes doing the same day at once store the same figures; a server that was down
 * catches up the days it missed (the latest CATCH_UP_DAYS), a first start does yesterday.
 */

export const RECONCILE_AFTER_DAY_END_MS = 15 * 60 * 1000;
export const RECONCILE_CHECK_INTERVAL_MS = 10 * 60 * 1000;
const CATCH_UP_DAYS = 31;

/** The ended days the job has still to reconcile, oldest first. */
export async function dueDays(db: Db, processor: string, now = new Date()): Promise<string[]> {
  const latest = dayAfter(today(new Date(now.getTime() - RECONCILE_AFTER_DAY_END_MS)), -1);
  const since = dayAfter(latest, -(CATCH_UP_DAYS - 1));
  const ran = await runTimes(db, processor, since);
  const complete = (day: string) => {
    const at = ran.get(day);
    return at !== undefined && at.getTime() >= dayRangeOf(day).end.getTime() + RECONCILE_AFTER_DAY_END_MS;
  };
  const days: string[] = [];
  for (let day = latest; day >= since && !complete(day); day = dayAfter(day, -1)) days.unshift(day);
  // Never reconciled after any day's end in the window (a first start): the latest day only.
  return days.length === CATCH_UP_DAYS ? [latest] : days;
}

export type ReconciliationJob = PeriodicJob;

/** Reconciles the due days now (the server's start) and every `intervalMs`. */
export function startReconciliationJob(deps: { db: Db; processor: CardProcessor; log: FastifyBaseLogger }, intervalMs = RECONCILE_CHECK_INTERVAL_MS): ReconciliationJob {
  return startPeriodicJob(
    'reconciliation job',
    intervalMs,
    async (stopped) => {
      for (const day of await dueDays(deps.db, deps.processor.name)) {
        if (stopped()) break;
        const result = await reconcileDay(deps, day, { trigger: 'job', userId: null });
        const figures = { processor: result.processor, day, processorRecords: result.processorRecords, ledgerRecords: result.ledgerRecords, differences: result.found.length, open: result.open };
        if (result.open > 0) deps.log.warn(figures, 'reconciliation: the card processor and the ledger differ; see the operator console');
        else deps.log.info(figures, 'reconciliation: the card processor and the ledger agree');
      }
    },
    deps.log,
  );
}

import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ReconciliationTrigger } from '../../db/schema.ts';
import { recordAudit } from '../audit/audit.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { CardProcessorUnavailableError, dayRangeOf, type CardProcessor } from '../payments/card-processor.ts';
import { REFUND_RECOVERY_AFTER_MS, REFUND_RECOVERY_INTERVAL_MS } from '../payments/collect/refund.ts';
import { compare, targetOf, type FoundMismatch } from './compare.ts';
import { ledgerChargesByReference, ledgerChargesOfDay, ledgerRefundsOfDay, recordStates, refundsById, saveRun } from './reconciliation.repository.ts';

/*
 * One reconciliation run: a processor's records of one UTC day against the ledger (the rules
 * are in compare.ts), stored as the day's run with what it found. Running a day again is
 * safe (the daily job, `npm run reconcile`, an operator): it replaces the day's figures, keeps
 * each difference's row and resolution, and clears the differences it no longer finds.
 */

export interface ReconcileResult {
  runId: string;
  processor: string;
  day: string;
  processorRecords: number;
  ledgerRecords: number;
  found: FoundMismatch[];
  /** The day's differences open after this run (found now and not resolved by an operator). */
  open: number;
  /** Open differences of the day this run no longer found. */
  cleared: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (time: Date) => time.toISOString().slice(0, 10);

/** The UTC day before or after `day`. */
export const dayAfter = (day: string, days = 1) => dayOf(new Date(dayRangeOf(day).start.getTime() + days * DAY_MS));

/** Today's UTC day. */
export const today = (now = new Date()) => dayOf(now);

/** Whether `day` has begun (UTC): a day not yet begun cannot be reconciled. */
export const dayHasBegun = (day: string, now = new Date()) => dayRangeOf(day).start.getTime() <= now.getTime();

export async function reconcileDay(
  deps: { db: Db; processor: CardProcessor },
  day: string,
  by: { trigger: ReconciliationTrigger; userId: string | null },
): Promise<ReconcileResult> {
  const { db, processor } = deps;
  const range = dayRangeOf(day);
  const file = (of: string) =>
    processor.settlementRecords(of).catch((error: unknown) => {
      // Our own database gone stays itself (503); anything else is the processor not answering.
      if (isDatabaseUnavailable(error)) throw error;
      throw new CardProcessorUnavailableError(`the processor's records of ${of} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    });
  const [before, records, after] = await Promise.all([file(dayAfter(day, -1)), file(day), file(dayAfter(day))]);
  // Who holds the charged payments and links is read before the books: a charge on its way is
  // then either still held, or in the books by the time they are read.
  const named = records.filter((record) => record.kind === 'charge').flatMap((record) => targetOf(record.merchantReference) ?? []);
  const states = await recordStates(db, named);
  const refundInFlightSince = new Date(Date.now() - REFUND_RECOVERY_AFTER_MS - REFUND_RECOVERY_INTERVAL_MS);
  const [ledgerCharges, chargesByReference, ledgerRefunds, refunds] = await Promise.all([
    ledgerChargesOfDay(db, processor.name, range),
    ledgerChargesByReference(
      db,
      records.flatMap((record) => (record.kind === 'charge' ? [record.reference] : record.chargeReference ? [record.chargeReference] : [])),
    ),
    ledgerRefundsOfDay(db, processor.name, range),
    refundsById(
      db,
      records.flatMap((record) => (record.kind === 'refund' && record.merchantReference ? [record.merchantReference] : [])),
    ),
  ]);
  const found = compare({
    dayRecords: records,
    nearbyRecords: [...before, ...records, ...after],
    ledgerCharges,
    chargesByReference,
    ledgerRefunds,
    refundsById: refunds,
    records: states,
    refundInFlightSince,
  });
  const figures = { processorRecords: records.length, ledgerRecords: ledgerCharges.length + ledgerRefunds.length };
  const saved = await inTransaction(db, async (trx) => {
    const run = await saveRun(trx, { processor: processor.name, day, trigger: by.trigger, requestedBy: by.userId, ...figures, found });
    await recordAudit(trx, {
      actorUserId: by.userId,
      action: 'reconciliation.run',
      subjectType: 'reconciliation_run',
      subjectId: run.runId,
      details: { processor: processor.name, day, trigger: by.trigger, ...figures, found: found.length, open: run.open, cleared: run.cleared },
    });
    return run;
  });
  return { runId: saved.runId, processor: processor.name, day, ...figures, found, open: saved.open, cleared: saved.cleared };
}

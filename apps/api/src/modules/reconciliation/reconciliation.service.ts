import {
  asCents,
  centsToMajor,
  reconciliationMessages as rm,
  type MismatchAction,
  type ReconciliationMismatchesQueryInput,
  type ReconciliationMismatchView,
  type ReconciliationRunView,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { isOutage, refuse, Refusal } from '../../http/refusals.ts';
import { requestHash, storedAnswer } from '../../http/idempotency.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { recordAudit } from '../audit/audit.ts';
import { recordStandingLinkCharge } from '../payment-requests/payment-requests.service.ts';
import { CardProcessorUnavailableError, type SettlementRecord } from '../payments/card-processor.ts';
import { cardProcessorOf, type StandingCharge } from '../payments/collect/collect.ts';
import { finishCardRefund } from '../payments/collect/refund.ts';
import { recordStandingPaymentCharge } from '../payments/payments.service.ts';
import { findRefund } from '../payments/refund-views.ts';
import type { MismatchDetails } from './compare.ts';
import { targetOf } from './compare.ts';
import { dayHasBegun, reconcileDay } from './reconcile.ts';
import {
  claimMismatch,
  findMismatch,
  findRun,
  ledgerChargesByReference,
  listMismatches,
  listRuns,
  releaseMismatch,
  resolveMismatch,
  type MismatchRow,
  type RunRow,
} from './reconciliation.repository.ts';

/*
 * The operator console's reconciliation (routes behind requireOperator): the runs, the
 * differences, and what an operator does with one — each with a reason, audited, never on
 * their own account's money:
 *   void    a charge the books do not have: the processor voids it (outside any transaction)
 *   record  a charge the books do not have: the collect pipeline's database step records it
 *           on its payment or link (refused, recording nothing, when that no longer takes it);
 *           a card refund the books still show as processing: the refund pipeline asks the
 *           processor again under the refund's id and settles it
 *   resolve any difference, with the reason (e.g. settled with the processor by hand)
 */

/** How long one operator's void or record holds a difference (a process that dies lets go after this). */
const ACTION_CLAIM_SECONDS = 120;

const major = (cents: number | null) => (cents === null ? null : centsToMajor(asCents(cents)));

function actionsOf(row: MismatchRow, details: Partial<MismatchDetails>): MismatchAction[] {
  if (row.status !== 'open') return [];
  if (row.kind === 'charge_not_recorded') return row.target ? ['void', 'record', 'resolve'] : ['void', 'resolve'];
  if (row.kind === 'refund_not_recorded' && details.ledgerStatus === 'refund processing') return ['record', 'resolve'];
  return ['resolve'];
}

export function mismatchView(row: MismatchRow): ReconciliationMismatchView {
  const details = row.details as Partial<MismatchDetails>;
  return {
    _id: row.id,
    processor: row.processor,
    day: row.day,
    kind: row.kind,
    reference: row.reference,
    target: row.target,
    recordId: row.recordId,
    accountNumber: row.accountNumber,
    refundId: row.refundId,
    currency: row.currency,
    processorAmount: major(row.processorAmountCents),
    ledgerAmount: major(row.ledgerAmountCents),
    transactionId: row.transactionId,
    card: details.card ?? null,
    processorStatus: details.processorStatus ?? null,
    ledgerStatus: details.ledgerStatus ?? null,
    processorAt: details.processorAt ?? null,
    ledgerAt: details.ledgerAt ?? null,
    status: row.status,
    resolution: row.resolution,
    resolutionReason: row.resolutionReason,
    resolvedBy: row.resolvedBy ? { userId: row.resolvedBy, email: row.resolvedByEmail ?? '' } : null,
    resolvedAt: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    actions: actionsOf(row, details),
  };
}

const runView = (row: RunRow): ReconciliationRunView => ({
  _id: row.id,
  processor: row.processor,
  day: row.day,
  trigger: row.trigger,
  ranAt: row.ranAt.toISOString(),
  processorRecords: row.processorRecords,
  ledgerRecords: row.ledgerRecords,
  mismatches: row.mismatches,
  open: Number(row.open),
});

/** GET /v1/operator/reconciliation/runs: the latest 60 days reconciled, newest first. */
export async function listReconciliationRuns(ctx: AppContext): Promise<ReconciliationRunView[]> {
  return (await listRuns(ctx.db, cardProcessorOf(ctx).name)).map(runView);
}

/** POST /v1/operator/reconciliation/runs: reconciles a UTC day now (today: as far as it has gone), audited. */
export async function runReconciliation(ctx: AppContext, operatorId: string, day: string): Promise<ReconciliationRunView> {
  if (!dayHasBegun(day)) throw refuse('day_in_future', { fields: { day: rm.dayInFuture } });
  const processor = cardProcessorOf(ctx);
  try {
    await reconcileDay({ db: ctx.db, processor }, day, { trigger: 'operator', userId: operatorId });
  } catch (error) {
    if (!(error instanceof CardProcessorUnavailableError)) throw error;
    ctx.log.warn({ err: error, day }, 'reconciliation: the processor did not answer');
    throw refuse('card_processor_unavailable', { message: rm.processorUnavailable });
  }
  const run = await findRun(ctx.db, processor.name, day);
  if (!run) throw new Error(`the run of ${day} is not stored`);
  return runView(run);
}

/** GET /v1/operator/reconciliation/mismatches: open ones by default, newest day first. */
export async function listReconciliationMismatches(ctx: AppContext, query: { status: 'open' | 'resolved' | 'all'; day?: string | undefined }): Promise<ReconciliationMismatchView[]> {
  return (await listMismatches(ctx.db, cardProcessorOf(ctx).name, query satisfies ReconciliationMismatchesQueryInput)).map(mismatchView);
}

/** The difference, open and not on the operator's own account's money. */
async function openMismatch(ctx: AppContext, operatorId: string, id: string): Promise<MismatchRow> {
  const row = await findMismatch(ctx.db, id);
  if (!row || row.processor !== cardProcessorOf(ctx).name) throw refuse('mismatch_not_found');
  if (row.accountId) await assertNotOwnAccount(ctx.db, operatorId, row.accountId);
  if (row.status !== 'open') throw refuse('mismatch_resolved');
  return row;
}

/** Runs `work` holding the difference (one operator's action at a time); lets go unless `work` resolved it. */
async function claimed<T>(ctx: AppContext, row: MismatchRow, work: () => Promise<T>): Promise<T> {
  if (!(await claimMismatch(ctx.db, row.id, ACTION_CLAIM_SECONDS))) {
    const now = await findMismatch(ctx.db, row.id);
    throw now?.status === 'open' ? refuse('mismatch_in_progress') : refuse('mismatch_resolved');
  }
  try {
    return await work();
  } finally {
    await releaseMismatch(ctx.db, row.id);
  }
}

/** Closes the difference with the audit entry, in one transaction; answers its view. */
async function close(
  ctx: AppContext,
  row: MismatchRow,
  closing: { resolution: 'voided' | 'recorded' | 'resolved'; action: string; reason: string; operatorId: string; ip: string; claimed: boolean; details?: Record<string, unknown> },
): Promise<ReconciliationMismatchView> {
  await inTransaction(ctx.db, async (trx) => {
    const transactionId = typeof closing.details?.transactionId === 'string' ? closing.details.transactionId : undefined;
    if (!(await resolveMismatch(trx, row.id, closing.resolution, closing.reason, closing.operatorId, { claimed: closing.claimed, transactionId }))) {
      const now = await findMismatch(trx, row.id);
      throw now?.status === 'open' ? refuse('mismatch_in_progress') : refuse('mismatch_resolved');
    }
    await recordAudit(trx, {
      actorUserId: closing.operatorId,
      action: closing.action,
      subjectType: 'reconciliation_mismatch',
      subjectId: row.id,
      ip: closing.ip,
      details: {
        reason: closing.reason,
        processor: row.processor,
        day: row.day,
        kind: row.kind,
        reference: row.reference,
        target: row.target,
        recordId: row.recordId,
        refundId: row.refundId,
        currency: row.currency,
        processorAmountCents: row.processorAmountCents,
        ledgerAmountCents: row.ledgerAmountCents,
        ...closing.details,
      },
    });
  });
  const after = await findMismatch(ctx.db, row.id);
  if (!after) throw new Error(`mismatch ${row.id} vanished`);
  return mismatchView(after);
}

/** The processor's record of a standing charge as it is now (its settlement file of the charge's day). */
async function chargeRecordNow(ctx: AppContext, row: MismatchRow): Promise<SettlementRecord | undefined> {
  const at = (row.details as Partial<MismatchDetails>).processorAt;
  const day = at ? at.slice(0, 10) : row.day;
  let records: SettlementRecord[];
  try {
    records = await cardProcessorOf(ctx).settlementRecords(day);
  } catch (error) {
    ctx.log.warn({ err: error, mismatchId: row.id }, 'reconciliation: the processor did not answer');
    throw refuse('card_processor_unavailable', { message: rm.processorUnavailable });
  }
  return records.find((record) => record.kind === 'charge' && record.reference === row.reference);
}

async function assertNotInBooks(ctx: AppContext, row: MismatchRow): Promise<void> {
  if ((await ledgerChargesByReference(ctx.db, [row.reference])).size > 0) throw refuse('already_recorded');
}

/**
 * POST …/mismatches/{id}/void: a charge the books do not have is voided at the processor,
 * outside any transaction — once the books are read again and still do not have it.
 */
export async function voidMismatch(ctx: AppContext, operatorId: string, id: string, reason: string, ip: string): Promise<ReconciliationMismatchView> {
  const row = await openMismatch(ctx, operatorId, id);
  if (row.kind !== 'charge_not_recorded') throw refuse('void_not_possible');
  return claimed(ctx, row, async () => {
    const record = await chargeRecordNow(ctx, row);
    if (!record) throw refuse('charge_not_standing');
    await assertNotInBooks(ctx, row);
    if (record.status === 'approved') {
      try {
        await cardProcessorOf(ctx).void(row.reference);
      } catch (error) {
        ctx.log.warn({ err: error, mismatchId: row.id }, 'reconciliation: the processor did not void the charge');
        throw refuse('card_processor_unavailable', { message: rm.processorUnavailable });
      }
    }
    return close(ctx, row, { resolution: 'voided', action: 'reconciliation.charge_voided', reason, operatorId, ip, claimed: true, details: { processorStatusBefore: record.status } });
  });
}

/**
 * POST …/mismatches/{id}/record: a charge the books do not have is recorded on its payment or
 * link through the collect pipeline (never a posting written here); a card refund the books
 * show as processing is settled by the refund pipeline, which asks the processor again.
 */
export async function recordMismatch(ctx: AppContext, operatorId: string, id: string, reason: string, ip: string): Promise<ReconciliationMismatchView> {
  const row = await openMismatch(ctx, operatorId, id);
  const view = mismatchView(row);
  if (!view.actions.includes('record')) throw refuse('record_not_possible');
  return claimed(ctx, row, async () => (row.kind === 'charge_not_recorded' ? recordCharge(ctx, row, reason, operatorId, ip) : recordRefund(ctx, row, reason, operatorId, ip)));
}

async function recordCharge(ctx: AppContext, row: MismatchRow, reason: string, operatorId: string, ip: string): Promise<ReconciliationMismatchView> {
  const record = await chargeRecordNow(ctx, row);
  if (!record || record.status !== 'approved') throw refuse('charge_not_standing');
  const named = targetOf(record.merchantReference);
  if (!named) throw refuse('charge_not_payable', { message: rm.notPayable('the charge names no payment') });
  const charge: StandingCharge & { amountCents: number; currency: string } = {
    reference: record.reference,
    card: { brand: record.card.brand ?? 'card', first6: record.card.first6, last4: record.card.last4, length: record.card.length, expiresIn: record.card.expiresIn },
    amountCents: record.amountCents,
    currency: record.currency,
  };
  // The difference is the key: two operators (or a retry) record the charge once.
  const idempotency = { caller: `reconciliation:${row.processor}`, key: row.id, route: 'reconciliation record charge', body: { mismatchId: row.id, reference: row.reference } };
  let recorded: { transactionId: string; replayed: boolean };
  try {
    if (!(await isOurReplay(ctx, idempotency))) await assertNotInBooks(ctx, row);
    recorded =
      named.target === 'payment'
        ? await recordStandingPaymentCharge(ctx, named.id, charge, idempotency)
        : await recordStandingLinkCharge(ctx, named.id, { ...charge, billing: record.billing }, idempotency);
  } catch (error) {
    if (error instanceof Refusal && !isOutage(error) && error.refusal !== 'charge_not_payable' && error.refusal !== 'already_recorded') {
      throw refuse('charge_not_payable', { message: rm.notPayable(error.message) });
    }
    throw error;
  }
  return close(ctx, row, { resolution: 'recorded', action: 'reconciliation.charge_recorded', reason, operatorId, ip, claimed: true, details: { transactionId: recorded.transactionId } });
}

/** Whether this difference's own record call already went through (a retry after a lost answer): its replay is answered, not refused. */
async function isOurReplay(ctx: AppContext, idempotency: { caller: string; key: string; route: string; body: Record<string, unknown> }): Promise<boolean> {
  return (await storedAnswer(ctx.db, idempotency.caller, idempotency.key, requestHash(idempotency.route, idempotency.body))) !== undefined;
}

async function recordRefund(ctx: AppContext, row: MismatchRow, reason: string, operatorId: string, ip: string): Promise<ReconciliationMismatchView> {
  const refund = row.refundId ? await findRefund(ctx.db, row.refundId) : undefined;
  if (!refund) throw refuse('record_not_possible');
  if (refund.status !== 'processing') throw refuse('already_recorded');
  await finishCardRefund(ctx, refund);
  const after = await findRefund(ctx.db, refund.id);
  if (after?.status !== 'succeeded') throw refuse('card_processor_unavailable', { message: rm.refundNotSettled });
  return close(ctx, row, { resolution: 'recorded', action: 'reconciliation.refund_recorded', reason, operatorId, ip, claimed: true, details: { refundStatus: after.status } });
}

/** POST …/mismatches/{id}/resolve: closes any open difference with the operator's reason (nothing moves). */
export async function resolveMismatchWithReason(ctx: AppContext, operatorId: string, id: string, reason: string, ip: string): Promise<ReconciliationMismatchView> {
  const row = await openMismatch(ctx, operatorId, id);
  return close(ctx, row, { resolution: 'resolved', action: 'reconciliation.resolved', reason, operatorId, ip, claimed: false });
}

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { asCents, asCurrency, formatMoney, REFUND_ERROR_CODES, REFUND_WINDOW_DAYS, refundMessages, subtractCents, type Cents, type Currency, type RefundInitiator, type RefundView } from '@kestrel/shared';
import type { AppContext } from '../../../context.ts';
import { refuse } from '../../../http/refusals.ts';
import { idempotencyKeyReused, requestHash, storedAnswer } from '../../../http/idempotency.ts';
import { MoneyMovementLockedError } from '../../accounts/tpin.ts';
import { startPeriodicJob, type PeriodicJob } from '../../../periodic-job.ts';
import { newTransactionId } from '../../ledger/ledger.service.ts';
import type { RefundOutcome } from '../card-processor.ts';
import { findRefund, refundView, type RefundRow } from '../refund-views.ts';
import { cardProcessorOf, type IdempotencyScope } from './collect.ts';
import { refundPost, refundSettle } from './refund-post.ts';

/*
 * The refund pipeline: the collect pipeline in reverse (payee → payer, the fee back in
 * proportion), for gateway payments and link payments alike. Callers pass what is refunded
 * (a `Refundable`: payments/payment-refund.ts, payment-requests/link-refund.ts) and who asks.
 *
 *   idempotency (a replay answers the first refund, as it is now)
 *   → checks that need no lock, for readable errors (paid, currency, 180 days, what is left)
 *   → `authorize` (the owner's TPIN), then one database call, `refund_post`
 *     (db/functions/refund_post.sql): under the record's row lock the limits again, the fee
 *     to return, the owner's wallet → the payer's wallet ('succeeded'), or → refunds in
 *     flight for a card ('processing'), the refund row, activities, audit, idempotency record
 *   → card: the processor's refund outside any transaction, then `refund_settle`: refunds in
 *     flight → card clearing ('succeeded'), or back to the owner and fee revenue ('failed').
 *
 * A card refund left 'processing' (the process died between the steps, the processor did not
 * answer) is finished or undone by `recoverRefunds`, which the server runs at start and every
 * REFUND_RECOVERY_INTERVAL_MS: it asks the processor again under the same refund id (the
 * processor's idempotency key, so the card is never refunded twice) and settles by its answer.
 */

/** A processing card refund is the sweep's after this long (the request's own processor call has given up by then). */
export const REFUND_RECOVERY_AFTER_MS = 60_000;
export const REFUND_RECOVERY_INTERVAL_MS = 30_000;

/** What is refunded, as its caller (the gateway, a link) reads it. */
export interface Refundable {
  target: 'payment' | 'link';
  recordId: string;
  /** The owner: the account that was paid, which gives the money back. */
  ownerAccountId: string;
  currency: Currency;
  amountCents: Cents;
  refundReservedCents: Cents;
  paid: boolean;
  paidAt: Date | null;
  paidLedgerTransactionId: number | null;
  /** A card payment's masked number (first 6, last 4). */
  cardMasked: string | null;
  /** The payment as the activities name it, e.g. "order 42 at Bike Shop". */
  label: string;
  audit: { subjectType: string; subjectId: string; details: Record<string, unknown> };
}

export interface RefundAsk {
  amountCents?: Cents | undefined;
  currency?: string | undefined;
  reason?: string | undefined;
  by: { kind: RefundInitiator; userId: string | null; name: string };
  idempotency: IdempotencyScope;
  /** Runs once the refund is known to be possible, before any money moves (the owner's TPIN). */
  authorize?: () => Promise<void>;
}

export const refundErrors = {
  notRefundable: () => refuse(REFUND_ERROR_CODES.notRefundable, { message: refundMessages.notRefundable }),
  windowClosed: () => refuse(REFUND_ERROR_CODES.windowClosed, { message: refundMessages.windowClosed }),
  exceedsRemaining: (remaining: Cents, currency: Currency) =>
    remaining <= 0
      ? refuse(REFUND_ERROR_CODES.exceedsRemaining, { message: refundMessages.fullyRefunded })
      : refuse(REFUND_ERROR_CODES.exceedsRemaining, { message: refundMessages.exceedsRemaining(formatMoney(remaining, currency)), fields: { amount: refundMessages.exceedsRemaining(formatMoney(remaining, currency)) } }),
  currencyMismatch: (currency: Currency) => refuse(REFUND_ERROR_CODES.currencyMismatch, { message: refundMessages.currencyMismatch(currency), fields: { currency: refundMessages.currencyMismatch(currency) } }),
  insufficientBalance: () => refuse(REFUND_ERROR_CODES.insufficientBalance, { message: refundMessages.insufficientBalance }),
  declined: () => refuse(REFUND_ERROR_CODES.declined, { message: refundMessages.declined }),
};

type Destination = { type: 'wallet'; accountId: string; masked: string } | { type: 'card'; reference: string; masked: string };

/** Where the money of a paid record came from: the payer's wallet, or a card (its processor reference), from its ledger transaction. */
async function destinationOf(ctx: AppContext, target: Refundable): Promise<Destination> {
  const { rows } = await sql<{ accountId: string | null; accountNumber: string | null; reference: string | null }>`
    SELECT la.account_id, a.account_number, t.metadata->>'processorReference' AS reference
      FROM ledger_postings p
      JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
      JOIN ledger_accounts la ON la.id = p.ledger_account_id
      LEFT JOIN accounts a ON a.id = la.account_id
     WHERE p.ledger_transaction_id = ${target.paidLedgerTransactionId} AND p.amount_cents < 0`.execute(ctx.db);
  const source = rows[0];
  if (source?.accountId && source.accountNumber) return { type: 'wallet', accountId: source.accountId, masked: `****${source.accountNumber.slice(-4)}` };
  if (source?.reference) return { type: 'card', reference: source.reference, masked: target.cardMasked ?? '' };
  throw new Error(`payment ${target.recordId} has no refundable source`);
}

/** The refund as it is now: a failed one is answered 402 (nothing moved), whether first time or replayed. */
async function answerOf(ctx: AppContext, refundId: string, replayed: boolean): Promise<{ refund: RefundView; replayed: boolean }> {
  const row = await findRefund(ctx.db, refundId);
  if (!row) throw new Error(`refund ${refundId} not found after it was made`);
  if (row.status === 'failed') throw refundErrors.declined();
  return { refund: refundView(row), replayed };
}

/**
 * Refunds all or part of a paid record: the whole pipeline above. Answers the refund (a card
 * refund whose processor did not answer stays 'processing', for the recovery sweep), or
 * throws the refusal; a refusal moves nothing.
 */
export async function refund(ctx: AppContext, target: Refundable, ask: RefundAsk): Promise<{ refund: RefundView; replayed: boolean }> {
  const scope = ask.idempotency;
  const fingerprint = requestHash(scope.route, { ...scope.body, tpin: undefined });
  if (scope.key) {
    const earlier = await storedAnswer<{ refundId: string }>(ctx.db, scope.caller, scope.key, fingerprint);
    if (earlier) return answerOf(ctx, earlier.body.refundId, true);
  }
  if (!target.paid || target.paidLedgerTransactionId === null) throw refundErrors.notRefundable();
  if (ask.currency !== undefined && ask.currency.toUpperCase() !== target.currency) throw refundErrors.currencyMismatch(target.currency);
  if (target.paidAt && target.paidAt.getTime() < Date.now() - REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000) throw refundErrors.windowClosed();
  const remaining = subtractCents(target.amountCents, target.refundReservedCents);
  const amountCents = ask.amountCents ?? remaining;
  if (remaining <= 0 || amountCents > remaining) throw refundErrors.exceedsRemaining(remaining, target.currency);
  const destination = await destinationOf(ctx, target);
  await ask.authorize?.();

  const refundId = randomUUID();
  const transactionId = newTransactionId();
  const shown = formatMoney(amountCents, target.currency);
  const activities = [{ account_id: target.ownerAccountId, name: 'Refund sent', comment: `${shown} refunded for ${target.label}, ${transactionId}` }];
  if (destination.type === 'wallet') activities.push({ account_id: destination.accountId, name: 'Refund received', comment: `${shown} refunded for ${target.label}, ${transactionId}` });
  const outcome = await refundPost(ctx.db, {
    target: target.target,
    recordId: target.recordId,
    refundId,
    amountCents,
    windowDays: REFUND_WINDOW_DAYS,
    destination,
    transactionId,
    initiatedBy: ask.by.kind,
    initiatedByUserId: ask.by.userId,
    initiatedByName: ask.by.name,
    reason: ask.reason ?? null,
    activities,
    audit: {
      actor_user_id: ask.by.userId,
      action: `${target.audit.subjectType}.refunded`,
      subject_type: target.audit.subjectType,
      subject_id: target.audit.subjectId,
      details: { ...target.audit.details, initiatedBy: ask.by.kind, reason: ask.reason ?? null, destination: destination.type },
    },
    idempotencyCaller: scope.caller,
    idempotencyKey: scope.key,
    requestHash: fingerprint,
  });
  switch (outcome.kind) {
    case 'ok':
      break;
    case 'replay':
      return answerOf(ctx, outcome.refundId, true);
    case 'idempotency_mismatch':
      throw idempotencyKeyReused();
    case 'not_refundable':
      throw refundErrors.notRefundable();
    case 'window_closed':
      throw refundErrors.windowClosed();
    case 'exceeds_remaining':
      throw refundErrors.exceedsRemaining(asCents(outcome.remainingCents), target.currency);
    case 'money_movement_locked':
      throw new MoneyMovementLockedError();
    case 'insufficient_funds':
      throw refundErrors.insufficientBalance();
  }
  if (destination.type === 'card') {
    const row = await findRefund(ctx.db, refundId);
    if (row) await finishCardRefund(ctx, row);
  }
  return answerOf(ctx, refundId, false);
}

/**
 * Asks the processor for a processing card refund and settles it by the answer. A processor
 * that throws (network, timeout) leaves the refund processing: the recovery sweep asks again.
 */
export async function finishCardRefund(ctx: AppContext, row: RefundRow): Promise<void> {
  if (row.status !== 'processing' || !row.processorReference) return;
  let answer: RefundOutcome;
  try {
    answer = await cardProcessorOf(ctx).refund(row.processorReference, asCents(row.amountCents), row.id, asCurrency(row.currency));
  } catch (error) {
    ctx.log.warn({ err: error, refundId: row.id }, 'card refund: the processor did not answer; the recovery sweep will ask again');
    return;
  }
  const shown = formatMoney(asCents(row.amountCents), row.currency as Currency);
  await refundSettle(ctx.db, {
    refundId: row.id,
    outcome: answer.refunded ? 'succeeded' : 'failed',
    failureReason: answer.refunded ? null : answer.message,
    transactionId: newTransactionId(),
    activities: answer.refunded ? [] : [{ account_id: row.accountId, name: 'Refund returned', comment: `${shown} refund ${row.transactionId} was refused by the card network and returned to this account` }],
    audit: {
      actor_user_id: null,
      action: answer.refunded ? 'refund.settled' : 'refund.returned',
      subject_type: 'refund',
      subject_id: row.id,
      details: answer.refunded ? { processorRefundReference: answer.reference } : { reason: answer.message },
    },
  });
}

/**
 * The recovery sweep: card refunds left 'processing' longer than `olderThanMs` (a crash
 * between the ledger step and the processor's answer) are asked about again and settled or
 * put back. Answers how many it looked at. Several processes may sweep at once: refund_settle
 * settles each refund once, and the processor answers one refund id once.
 */
export async function recoverRefunds(ctx: AppContext, options: { olderThanMs?: number; limit?: number } = {}): Promise<number> {
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? REFUND_RECOVERY_AFTER_MS));
  const rows = await ctx.db
    .updateTable('refunds')
    .set((eb) => ({ recoveryAttempts: eb('recoveryAttempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('refunds')
        .select('id')
        .where('status', '=', 'processing')
        .where('createdAt', '<', cutoff)
        .orderBy('createdAt')
        .limit(options.limit ?? 50),
    )
    .returningAll()
    .execute();
  for (const row of rows) await finishCardRefund(ctx, row);
  if (rows.length) ctx.log.info({ refunds: rows.length }, 'refund recovery: processing card refunds asked about again');
  return rows.length;
}

export type RefundRecovery = PeriodicJob;

/** Runs the recovery sweep now (the server's start) and every `intervalMs`. */
export function startRefundRecovery(ctx: AppContext, intervalMs = REFUND_RECOVERY_INTERVAL_MS): RefundRecovery {
  return startPeriodicJob('refund recovery sweep', intervalMs, () => recoverRefunds(ctx), ctx.log);
}

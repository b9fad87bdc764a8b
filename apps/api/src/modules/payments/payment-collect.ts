import {
  asCents,
  asCurrency,
  centsToMajor,
  CARD_ATTEMPT_HOLD_SECONDS,
  formatMoney,
  MAX_DECLINES_PER_PAYMENT,
  MAX_DECLINES_PER_STORE_PER_HOUR,
  paymentMessages,
  type Cents,
  type PaymentResult,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { replayOf } from '../../http/idempotency.ts';
import { isUuid } from '../../http/ownership.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import { isDecline } from './card-processor.ts';
import { queueCallback } from '../callbacks/outbox.ts';
import { callbackBody, signedRedirectUrl, type CallbackPayload } from '../callbacks/signing.ts';
import { decryptStoreKey } from '../stores/store-key.ts';
import type { AttemptHold, Collectible, IdempotencyScope, OpenedAttempt, OpenedPayment } from './collect/collect.ts';
import { WALLET_BRAND, type RefusalSink } from './collect/sources.ts';
import { gatewayFeeCents } from './fees.ts';
import { findPayment, holdPaymentForCard, insertPaymentError, paymentChargeRecorded, readPaymentForAttempt, releaseLease, type PaymentRow } from './payments.repository.ts';

/*
 * The gateway's side of the collect pipeline (collect/collect.ts): what a paid payment
 * records (the payment row, the store's callback, the signed return address), how a card
 * attempt holds a payment (a lease, with the decline caps) and where its refusals go (the
 * payment's paymentErrors, the store told of a declined card).
 */

export function feeTooHigh(): Refusal {
  return refuse('fee_too_high');
}

export function feeOf(payment: Pick<PaymentRow, 'amountCents' | 'gatewayFeeFixedCents' | 'gatewayFeePercent'>): Cents {
  return gatewayFeeCents(asCents(payment.amountCents), asCents(payment.gatewayFeeFixedCents), payment.gatewayFeePercent);
}

export function payloadOf(payment: PaymentRow, status: CallbackPayload['paymentStatus'], tnxId: string | null): CallbackPayload {
  return { paymentStatus: status, tnxId, currency: payment.currency, amount: centsToMajor(asCents(payment.amountCents)), orderId: payment.orderId, paymentId: payment.id };
}

/** The store's signed return address for a paid payment. */
export function successRedirect(ctx: AppContext, payment: PaymentRow, tnxId: string): string {
  const storeKey = decryptStoreKey(ctx.config.secretKey, payment.storeKeyEncrypted);
  return signedRedirectUrl(payment.callbackUrl, storeKey, payloadOf(payment, 'success', tnxId));
}

export interface CardPaymentAnswer {
  data: PaymentResult;
  redirectUrl: string;
}

/** Refuses a payment that can take no attempt now: paid, or its fee would take all of it. */
export function assertPayable(payment: PaymentRow): void {
  if (payment.paymentStatus === 'success') throw refuse('already_paid');
  if (feeOf(payment) >= payment.amountCents) throw feeTooHigh();
}

/**
 * A payment as the collect pipeline's record: the database step locks it and refuses it
 * when paid (or, for a wallet, when a card attempt holds it; the unique
 * paid_ledger_transaction_id backs this up), marks it paid with its source and queues the
 * store's callback; the answer carries the store's signed return address.
 */
export function gatewayCollectible(ctx: AppContext, payment: PaymentRow, billingInfo: unknown): Collectible<CardPaymentAnswer> {
  const amountCents = asCents(payment.amountCents);
  const feeCents = feeOf(payment);
  const currency = asCurrency(payment.currency);
  return {
    target: 'payment',
    recordId: payment.id,
    ledgerKind: 'gateway_payment',
    transactionFor: 'Payment',
    payeeAccountId: payment.accountId,
    currency,
    amountCents,
    feeCents,
    metadata: { paymentId: payment.id, storeId: payment.publicStoreId, orderId: payment.orderId },
    describe(tnxId, source) {
      const record =
        source.kind === 'card'
          ? {
              payment_source_type: 'card',
              source_brand: source.card.brand,
              source_first6: source.card.first6,
              source_last4: source.card.last4,
              source_length: source.card.length,
              source_expires_in: source.card.expiresIn,
              billing_info: billingInfo ?? null,
            }
          : {
              payment_source_type: 'wallet',
              source_brand: WALLET_BRAND,
              // Only the last 4 digits of the payer's account number are kept on the payment.
              source_last4: /\d{4}$/.exec(source.payer.accountNumber)?.[0] ?? null,
              source_length: source.payer.accountNumber.length,
            };
      const shown = formatMoney(amountCents, currency);
      const data: PaymentResult = { paymentStatus: 'success', tnxId, orderId: payment.orderId, currency: payment.currency, amount: centsToMajor(amountCents), paymentId: payment.id };
      return {
        answer: { data, redirectUrl: successRedirect(ctx, payment, tnxId) },
        record,
        callback: { store_id: payment.storeId, target_url: payment.callbackUrl, body: callbackBody(payloadOf(payment, 'success', tnxId)) },
        payeeActivity: { name: 'Payment received', comment: `${shown} for order ${payment.orderId} at ${payment.storeName} (fee ${formatMoney(feeCents, currency)}), ${tnxId}` },
        payerActivity: { name: 'Payment sent', comment: `${shown} to ${payment.storeName} for order ${payment.orderId}, ${tnxId}` },
        audit: {
          actorUserId: source.kind === 'wallet' ? source.userId : null,
          action: source.kind === 'card' ? 'payment.card_paid' : 'payment.wallet_paid',
          subjectType: 'payment',
          subjectId: payment.id,
          details: { storeId: payment.publicStoreId, amountCents, feeCents },
        },
      };
    },
    async refusal(kind) {
      if (kind === 'already_paid') return refuse('already_paid');
      // A card attempt holds the payment (its hold's end is not read here): come back in a second.
      if (kind === 'attempt_in_progress') return refuse('attempt_in_progress', { retryAfterSeconds: 1 });
      throw new Error(`a payment is never refused with ${kind}`);
    },
  };
}

/**
 * A card attempt's hold on a payment: its lease (one attempt at a time, whatever races; a
 * crashed attempt's lease ends after CARD_ATTEMPT_HOLD_SECONDS), taken by openPaymentAttempt's
 * one call together with the decline caps (issue 19: no free card-testing oracle).
 */
function paymentLease(ctx: AppContext, payment: PaymentRow): AttemptHold {
  return {
    release: () => releaseLease(ctx.db, payment.id),
    chargeRecorded: (reference) => paymentChargeRecorded(ctx.db, payment.id, reference),
  };
}

/**
 * Opens a card attempt on a payment in one database call (holdPaymentForCard): the payment
 * and its store, the key's earlier answer and the lease with the decline caps. The refusals
 * come in the order the three steps had: no such payment, a suspended store (the stores
 * module's answer), the key's earlier answer, paid, a fee that takes the whole amount, an
 * attempt in progress, the decline caps. `seen` is told the payment (where refusals are kept).
 */
export async function openPaymentAttempt(
  ctx: AppContext,
  paymentId: string,
  scope: IdempotencyScope,
  fingerprint: string,
  billingInfo: unknown,
  seen: (payment: PaymentRow) => void,
): Promise<OpenedAttempt<CardPaymentAnswer>> {
  const now = Date.now();
  const held = isUuid(paymentId)
    ? await holdPaymentForCard(ctx.db, {
        paymentId,
        caller: scope.caller,
        key: scope.key,
        leaseUntil: new Date(now + CARD_ATTEMPT_HOLD_SECONDS * 1000),
        now: new Date(now),
        declinesSince: new Date(now - 60 * 60 * 1000),
        maxPaymentDeclines: MAX_DECLINES_PER_PAYMENT,
        maxStoreDeclines: MAX_DECLINES_PER_STORE_PER_HOUR,
      })
    : undefined;
  if (!held) throw refuse('payment_not_found');
  if (held.storeStatus === 'Suspended') throw refuse('store_suspended');
  if (held.earlier) return { kind: 'replay', answer: replayOf<CardPaymentAnswer>(held.earlier, fingerprint) };
  const { payment } = held;
  seen(payment);
  const hold = paymentLease(ctx, payment);
  if (held.leased) {
    try {
      assertPayable(payment);
    } catch (error) {
      await hold.release();
      throw error;
    }
    return { kind: 'held', target: gatewayCollectible(ctx, payment, billingInfo), hold };
  }
  assertPayable(payment);
  // Retry-After: when the other attempt's hold ends (it ends by itself if that attempt died).
  if (payment.attemptLeaseUntil && payment.attemptLeaseUntil.getTime() >= now)
    throw refuse('attempt_in_progress', { retryAfterSeconds: Math.max(1, Math.ceil((payment.attemptLeaseUntil.getTime() - now) / 1000)) });
  if (held.paymentDeclines >= MAX_DECLINES_PER_PAYMENT) throw refuse('too_many_declines', { message: paymentMessages.tooManyDeclines });
  if (held.storeDeclines >= MAX_DECLINES_PER_STORE_PER_HOUR) throw refuse('too_many_declines', { message: paymentMessages.tooManyStoreDeclines });
  // Paid or leased by a request that committed after this statement's snapshot was taken.
  const fresh = await findPayment(ctx.db, payment.id);
  if (fresh?.paymentStatus === 'success') throw refuse('already_paid');
  throw refuse('attempt_in_progress', { retryAfterSeconds: 1 });
}

/**
 * Opens a wallet payment of a payment in one statement (readPaymentForAttempt): no such
 * payment, a suspended store, the key's earlier answer, then `seen` (the caller's own checks,
 * e.g. paying one's own store) and the payable checks, in that order.
 */
export async function openPaymentForWallet(
  ctx: AppContext,
  paymentId: string,
  scope: IdempotencyScope,
  fingerprint: string,
  seen: (payment: PaymentRow) => void,
): Promise<OpenedPayment<CardPaymentAnswer>> {
  const read = isUuid(paymentId) ? await readPaymentForAttempt(ctx.db, { paymentId, caller: scope.caller, key: scope.key }) : undefined;
  if (!read) throw refuse('payment_not_found');
  if (read.storeStatus === 'Suspended') throw refuse('store_suspended');
  if (read.earlier) return { kind: 'replay', answer: replayOf<CardPaymentAnswer>(read.earlier, fingerprint) };
  seen(read.payment);
  assertPayable(read.payment);
  return { kind: 'ready', target: gatewayCollectible(ctx, read.payment, undefined) };
}

/** A payment's refused attempts: kept in its paymentErrors (masked source only); a declined card is also told to the store. */
export function paymentRefusals(ctx: AppContext, paymentOf: () => PaymentRow | undefined): RefusalSink {
  return async (refusal, source) => {
    const payment = paymentOf();
    if (!payment) return;
    await inTransaction(ctx.db, async (trx: Trx) => {
      await insertPaymentError(trx, { paymentId: payment.id, storeId: payment.storeId, code: refusal.code, message: refusal.message, source });
      if (isDecline(refusal)) {
        await queueCallback(trx, { storeId: payment.storeId, paymentId: payment.id, targetUrl: payment.callbackUrl, payload: payloadOf(payment, 'failed', null) });
      }
    });
  };
}

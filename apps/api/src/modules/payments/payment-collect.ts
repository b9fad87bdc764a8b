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
import { refuse, type Refusal } from '../../http/refusals.ts';
import { isDecline } from './card-processor.ts';
import { queueCallback } from '../callbacks/outbox.ts';
import { callbackBody, signedRedirectUrl, type CallbackPayload } from '../callbacks/signing.ts';
import { decryptStoreKey } from '../stores/store-key.ts';
import { WALLET_BRAND, type AttemptHold, type Collectible, type RefusalSink } from './collect/collect.ts';
import { gatewayFeeCents } from './fees.ts';
import { findPayment, insertPaymentError, leasePayment, paymentChargeRecorded, releaseLease, type PaymentRow } from './payments.repository.ts';

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
  return asCents(gatewayFeeCents(payment.amountCents, payment.gatewayFeeFixedCents, payment.gatewayFeePercent));
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
      if (kind === 'attempt_in_progress') return refuse('attempt_in_progress');
      throw new Error(`a payment is never refused with ${kind}`);
    },
  };
}

/**
 * A card attempt's hold on a payment: its lease (one attempt at a time, whatever races; a
 * crashed attempt's lease ends after CARD_ATTEMPT_HOLD_SECONDS). The same statement counts
 * the payment's declines and the store's in the last hour: past either cap the attempt is
 * refused 429 before the card is charged (issue 19: no free card-testing oracle).
 */
export function paymentLease(ctx: AppContext, payment: PaymentRow): AttemptHold {
  return {
    async take() {
      const leased = await leasePayment(ctx.db, payment.id, CARD_ATTEMPT_HOLD_SECONDS);
      if (!leased) {
        const fresh = await findPayment(ctx.db, payment.id);
        if (fresh?.paymentStatus === 'success') throw refuse('already_paid');
        throw refuse('attempt_in_progress');
      }
      const refusal =
        leased.paymentDeclines >= MAX_DECLINES_PER_PAYMENT
          ? paymentMessages.tooManyDeclines
          : leased.storeDeclines >= MAX_DECLINES_PER_STORE_PER_HOUR
            ? paymentMessages.tooManyStoreDeclines
            : undefined;
      if (refusal) {
        await releaseLease(ctx.db, payment.id);
        throw refuse('too_many_declines', { message: refusal });
      }
    },
    release: () => releaseLease(ctx.db, payment.id),
    chargeRecorded: (reference) => paymentChargeRecorded(ctx.db, payment.id, reference),
  };
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

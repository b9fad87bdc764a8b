import {
  centsToMajor,
  paymentMessages,
  asCents,
  checkoutMessages,
  type Cents,
  type CheckoutView,
  type KestrelPayBody,
  type CompleteCardBody,
  type DirectPayBody,
  type WebPayBody,
  reconciliationMessages,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import { idempotencyKeyReused, requestHash } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import type { GatewayStore } from '../stores/store-key.guard.ts';
import { storeLogoUrl } from '../stores/stores.service.ts';
import { checkCard } from './card-input.ts';
import { collectByCard, collectByWallet, recordCardCharge, type IdempotencyScope, type StandingCharge } from './collect/collect.ts';
import { gatewayFeeCents } from './fees.ts';
import { maskedNumber } from './masked-source.ts';
import { assertPayable, feeTooHigh, gatewayCollectible, openPaymentAttempt, openPaymentForWallet, paymentRefusals, successRedirect, type CardPaymentAnswer } from './payment-collect.ts';
import { paymentCreate } from './payment-create.ts';
import { findPayment, findPaymentByUrlId, type PaymentRow } from './payments.repository.ts';

export type { CardPaymentAnswer } from './payment-collect.ts';
// Other modules read this module's tables through these (lint keeps them out of its repository).
export { paidPaymentsForNotice, recentPaymentsOf, type PaidPaymentNoticeRow } from './payments.repository.ts';
// The operator's chart adds the links' payments to every store's (modules/operator).
export { gatewayPaymentEvents, paymentDays, type PaymentEvents } from './payment-days.repository.ts';
export { paymentChartOf } from './payment-chart.ts';

export const checkoutUrl = (ctx: AppContext, urlId: string) => `${ctx.config.publicUrl}/web-pay/${urlId}`;

const orderTaken = (existingPaymentId: string): Refusal =>
  refuse('order_id_taken', { message: paymentMessages.orderIdTaken(existingPaymentId), fields: { orderId: paymentMessages.orderIdTaken(existingPaymentId) } });

interface CreatedPayment {
  paymentId: string;
  urlId: string;
  orderId: string;
  amount: number;
  currency: string;
  paymentStatus: 'initiate';
}

/** The payment_create call's input for a store's new payment (without its idempotency part). */
function newPayment(store: GatewayStore, body: WebPayBody, amountCents: Cents) {
  return {
    storeId: store.id,
    accountId: store.accountId,
    orderId: body.orderId,
    currency: body.currency,
    amountCents,
    customerName: body.customerName,
    customerEmail: body.customerEmail,
    customerPhone: body.customerPhone,
    customerAddress: body.customerAddress,
    productName: body.productName,
    cancelUrl: body.cancelUrl,
    valueA: body.valueA ?? null,
  };
}

/** Refuses, before anything is stored, an amount whose fee would take all of it (the guard read the owner's fee settings). */
function assertFeeFits(store: GatewayStore, amountCents: Cents): void {
  if (gatewayFeeCents(amountCents, store.gatewayFeeFixedCents, store.gatewayFeePercent) >= amountCents) throw feeTooHigh();
}

/**
 * POST /v1/payment/web-pay (and /redirect): a new payment waiting on the hosted checkout, in
 * one database call (`paymentCreate`). An orderId is unique per store (the database says so
 * too); a second one is a 409 naming the existing payment. With an Idempotency-Key a retry
 * gets the first answer, the same key with another request 422.
 */
export async function createPayment(ctx: AppContext, store: GatewayStore, body: WebPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  assertFeeFits(store, amountCents);
  const outcome = await paymentCreate(ctx.db, {
    ...newPayment(store, body, amountCents),
    idempotencyCaller: `store:${store.id}`,
    idempotencyKey,
    requestHash: requestHash('POST /v1/payment/web-pay', { ...body, amount: amountCents }),
    answer: ({ paymentId, urlId }): CreatedPayment => ({ paymentId, urlId, orderId: body.orderId, amount: centsToMajor(amountCents), currency: body.currency, paymentStatus: 'initiate' }),
  });
  if (outcome.kind === 'idempotency_mismatch') throw idempotencyKeyReused();
  if (outcome.kind === 'order_taken') throw orderTaken(outcome.existingPaymentId);
  const payment = JSON.parse(outcome.bodyText) as CreatedPayment;
  return { payment, redirectUrl: checkoutUrl(ctx, payment.urlId), replayed: outcome.kind === 'replay' };
}

export async function paymentOr404(ctx: AppContext, paymentId: string): Promise<PaymentRow> {
  const payment = isUuid(paymentId) ? await findPayment(ctx.db, paymentId) : undefined;
  if (!payment) throw refuse('payment_not_found');
  return payment;
}

/**
 * One card attempt on a payment, through the collect pipeline: the payment (`paymentIdOf`:
 * the checkout's, or the one a direct payment just created) is read and leased in one call,
 * the card charged, the payment recorded paid; a decline is kept on the payment and answered
 * 402, the payment staying payable (up to the decline caps).
 */
async function attemptCard(
  ctx: AppContext,
  options: { caller: string; key: string | undefined; route: string; body: Record<string, unknown>; card: ReturnType<typeof checkCard>; cvc: string; billingInfo: unknown },
  paymentIdOf: () => Promise<string>,
): Promise<{ answer: CardPaymentAnswer; replayed: boolean }> {
  let payment: PaymentRow | undefined;
  const idempotency: IdempotencyScope = { caller: options.caller, key: options.key, route: options.route, body: options.body };
  return collectByCard(ctx, {
    idempotency,
    card: options.card,
    cvc: options.cvc,
    open: async (fingerprint) => openPaymentAttempt(ctx, await paymentIdOf(), idempotency, fingerprint, options.billingInfo, (seen) => (payment = seen)),
    refused: paymentRefusals(ctx, () => payment),
  });
}

/**
 * POST /v1/payment/complete/{paymentId}: the checkout's card payment (public: whoever holds
 * the payment's id pays it). Its database step before the charge is one call, the suspended
 * store's refusal included (so the route has no pre-handler reading the store).
 */
export async function payByCard(ctx: AppContext, paymentId: string, body: CompleteCardBody, idempotencyKey: string | undefined) {
  const id = paymentId.toLowerCase();
  const card = checkCard(body);
  return attemptCard(ctx, { caller: `payment:${id}`, key: idempotencyKey, route: 'POST /v1/payment/complete', body, card, cvc: body.cvc, billingInfo: body.billingInfo }, async () => id);
}

/** GET /v1/payment/{urlId}: the hosted checkout's view (public; the urlId is the capability). */
export async function getCheckout(ctx: AppContext, urlId: string): Promise<CheckoutView> {
  const row = await findPaymentByUrlId(ctx.db, urlId);
  if (!row) throw refuse('payment_not_found');
  return {
    paymentId: row.id,
    storeName: row.storeName,
    storeLogo: storeLogoUrl(row.logoStoredName),
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    paymentStatus: row.paymentStatus,
    cancelUrl: row.cancelUrl,
    redirectUrl: row.paymentStatus === 'success' && row.transactionId ? successRedirect(ctx, row, row.transactionId) : null,
    // The receipt's lines (issue 20): what was bought, and once paid, how and when.
    productName: row.productName,
    orderId: row.orderId,
    transactionId: row.transactionId,
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    paymentSource: row.paymentSourceType && row.sourceBrand ? { type: row.paymentSourceType, brand: row.sourceBrand, number: maskedNumber(row) } : null,
  };
}

/**
 * POST /v1/payment/complete/kestrel/{paymentId}: the checkout's wallet payment. The payer is
 * the signed-in caller, paying from an account they own, with its TPIN (counted, with
 * lockout) checked before any money moves; then one ledger transaction through the collect
 * pipeline (the payer's wallet pays the owner's wallet the amount less the fee, fee revenue
 * gets the fee).
 */
export async function payByWallet(ctx: AppContext, callerId: string, paymentId: string, body: KestrelPayBody, idempotencyKey: string | undefined, ip: string) {
  if (body.userId !== undefined && body.userId !== callerId) throw refuse('forbidden', { message: checkoutMessages.userMismatch });
  const payer = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!payer) throw refuse('account_not_found');
  const id = paymentId.toLowerCase();
  let payment: PaymentRow | undefined;
  const idempotency: IdempotencyScope = { caller: `user:${callerId}`, key: idempotencyKey, route: 'POST /v1/payment/complete/kestrel', body: { ...body, tpin: undefined, userId: callerId, paymentId: id } };
  return collectByWallet(ctx, {
    idempotency,
    payer,
    userId: callerId,
    tpin: body.tpin,
    stepUpCode: body.stepUpCode,
    ip,
    open: (fingerprint) =>
      openPaymentForWallet(ctx, id, idempotency, fingerprint, (seen) => {
        if (payer.id === seen.accountId) throw refuse('own_store');
        payment = seen;
      }),
    refused: paymentRefusals(ctx, () => payment),
  });
}

/** POST /v1/payment/web-pay/complete/direct: create the payment and charge the card in one call. */
export async function payDirect(ctx: AppContext, store: GatewayStore, body: DirectPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  const card = checkCard(body);
  assertFeeFits(store, amountCents);
  const { type: _type, brand: _brand, number: _number, expiresIn: _expiresIn, cvc: _cvc, billingInfo: _billing, ...webPay } = body;
  return attemptCard(
    ctx,
    { caller: `store:${store.id}`, key: idempotencyKey, route: 'POST /v1/payment/web-pay/complete/direct', body: { ...body, amount: amountCents }, card, cvc: body.cvc, billingInfo: body.billingInfo },
    async () => {
      const created = await paymentCreate(ctx.db, {
        ...newPayment(store, webPay, amountCents),
        // The direct payment's key covers the whole call (the collect pipeline's idempotency);
        // the payment it creates is recorded under that key too, with a suffix no client key can
        // have (a space), so a retry after the payment was created but not paid (the database
        // went away mid-call, the card network did not answer) pays that payment instead of
        // answering order_id_taken for the order the first try created.
        idempotencyCaller: `store:${store.id}`,
        idempotencyKey: idempotencyKey === undefined ? undefined : `${idempotencyKey} payment`,
        requestHash: requestHash('POST /v1/payment/web-pay/complete/direct payment', { ...webPay, amount: amountCents }),
        answer: ({ paymentId }) => ({ paymentId }),
      });
      if (created.kind === 'order_taken') throw orderTaken(created.existingPaymentId);
      if (created.kind === 'idempotency_mismatch') throw idempotencyKeyReused();
      return created.kind === 'ok' ? created.paymentId : (JSON.parse(created.bodyText) as { paymentId: string }).paymentId;
    },
  );
}


/**
 * Records a card charge the processor made for this payment that the books never took
 * (reconciliation's "record", issue 26): the payment must still take it — unpaid, the same
 * amount and currency, a fee below the amount — and is then paid through the collect
 * pipeline's database step with that charge (its store callback queued like any payment's).
 * Answers the ledger transaction id; a refusal records nothing.
 */
export async function recordStandingPaymentCharge(
  ctx: AppContext,
  paymentId: string,
  charge: StandingCharge,
  idempotency: IdempotencyScope,
): Promise<{ transactionId: string; replayed: boolean }> {
  const { answer, replayed } = await recordCardCharge(ctx, {
    idempotency,
    charge,
    prepare: async () => {
      const payment = await paymentOr404(ctx, paymentId);
      assertPayable(payment);
      if (payment.amountCents !== charge.amountCents || payment.currency !== charge.currency) throw refuse('charge_not_payable', { message: reconciliationMessages.amountNotPayable });
      return gatewayCollectible(ctx, payment, null);
    },
  });
  if (!answer.data.tnxId) throw new Error(`payment ${paymentId} recorded without a transaction id`);
  return { transactionId: answer.data.tnxId, replayed };
}

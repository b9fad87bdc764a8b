import { randomBytes } from 'node:crypto';
import {
  centsToMajor,
  paymentMessages,
  asCents,
  checkoutMessages,
  messages,
  type Cents,
  type CheckoutView,
  type KestrelPayBody,
  type CompleteCardBody,
  type DirectPayBody,
  type WebPayBody,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, isUniqueViolation, type Trx } from '../../db/transaction.ts';
import { badRequest, conflict, forbidden, notFound, type AppError } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import type { GatewayStore } from '../stores/store-key.guard.ts';
import { storeLogoUrl } from '../stores/stores.service.ts';
import { checkCard } from './card-input.ts';
import { collectByCard, collectByWallet } from './collect/collect.ts';
import { gatewayFeeCents } from './fees.ts';
import { maskedNumber } from './masked-source.ts';
import { assertPayable, feeTooHigh, gatewayCollectible, paymentLease, paymentRefusals, successRedirect, type CardPaymentAnswer } from './payment-collect.ts';
import { findPayment, findPaymentByOrder, findPaymentByUrlId, ownerFeeSettings, type PaymentRow } from './payments.repository.ts';

export type { CardPaymentAnswer } from './payment-collect.ts';

export const checkoutUrl = (ctx: AppContext, urlId: string) => `${ctx.config.publicUrl}/web-pay/${urlId}`;

async function orderTaken(ctx: AppContext, store: GatewayStore, orderId: string): Promise<AppError | undefined> {
  const existing = await findPaymentByOrder(ctx.db, store.id, orderId);
  return existing ? conflict(paymentMessages.orderIdTaken(existing.id), 'order_id_taken', { orderId: paymentMessages.orderIdTaken(existing.id) }) : undefined;
}

interface CreatedPayment {
  paymentId: string;
  urlId: string;
  orderId: string;
  amount: number;
  currency: string;
  paymentStatus: 'initiate';
}

async function insertPayment(trx: Trx, store: GatewayStore, body: WebPayBody, amountCents: Cents): Promise<CreatedPayment> {
  const row = await trx
    .insertInto('payments')
    .values({
      storeId: store.id,
      accountId: store.accountId,
      // 128 random bits: the checkout address must not be guessable.
      urlId: randomBytes(16).toString('base64url'),
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
    })
    .returning(['id', 'urlId'])
    .executeTakeFirstOrThrow();
  return { paymentId: row.id, urlId: row.urlId, orderId: body.orderId, amount: centsToMajor(amountCents), currency: body.currency, paymentStatus: 'initiate' };
}

/** Refuses, before anything is stored, an amount whose fee would take all of it. */
async function assertFeeFits(ctx: AppContext, accountId: string, amountCents: number): Promise<void> {
  const fees = await ownerFeeSettings(ctx.db, accountId);
  if (gatewayFeeCents(amountCents, fees.gatewayFeeFixedCents, fees.gatewayFeePercent) >= amountCents) throw feeTooHigh();
}

/**
 * POST /v1/payment/web-pay (and /redirect): a new payment waiting on the hosted checkout.
 * An orderId is unique per store (the database says so too); a second one is a 409 naming
 * the existing payment. With an Idempotency-Key a retry gets the first answer.
 */
export async function createPayment(ctx: AppContext, store: GatewayStore, body: WebPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  await assertFeeFits(ctx, store.accountId, amountCents);
  try {
    const outcome = await runIdempotent(
      ctx.db,
      {
        caller: `store:${store.id}`,
        key: idempotencyKey,
        route: 'POST /v1/payment/web-pay',
        body: { ...body, amount: amountCents },
        statusCode: 200,
        beforeWork: async () => {
          const taken = await orderTaken(ctx, store, body.orderId);
          if (taken) throw taken;
        },
      },
      (trx) => insertPayment(trx, store, body, amountCents),
    );
    return { payment: outcome.body, redirectUrl: checkoutUrl(ctx, outcome.body.urlId), replayed: outcome.replayed };
  } catch (error) {
    if (isUniqueViolation(error, 'payments_store_order_key')) throw (await orderTaken(ctx, store, body.orderId)) ?? error;
    throw error;
  }
}

export async function paymentOr404(ctx: AppContext, paymentId: string): Promise<PaymentRow> {
  const payment = isUuid(paymentId) ? await findPayment(ctx.db, paymentId) : undefined;
  if (!payment) throw notFound(paymentMessages.notFound, 'payment_not_found');
  return payment;
}

/**
 * One card attempt on an existing payment, through the collect pipeline: the payment is
 * re-read (`load`), leased, the card charged, the payment recorded paid; a decline is kept on
 * the payment and answered 402, the payment staying payable (up to the decline caps).
 */
async function attemptCard(
  ctx: AppContext,
  options: { caller: string; key: string | undefined; route: string; body: Record<string, unknown>; card: ReturnType<typeof checkCard>; cvc: string; billingInfo: unknown },
  load: () => Promise<PaymentRow>,
): Promise<{ answer: CardPaymentAnswer; replayed: boolean }> {
  let payment: PaymentRow | undefined;
  return collectByCard(ctx, {
    idempotency: { caller: options.caller, key: options.key, route: options.route, body: options.body },
    card: options.card,
    cvc: options.cvc,
    prepare: async () => {
      payment = await load();
      assertPayable(payment);
      return { target: gatewayCollectible(ctx, payment, options.billingInfo), hold: paymentLease(ctx, payment) };
    },
    refused: paymentRefusals(ctx, () => payment),
  });
}

/** POST /v1/payment/complete/{paymentId}: the checkout's card payment (public: whoever holds the payment's id pays it). */
export async function payByCard(ctx: AppContext, paymentId: string, body: CompleteCardBody, idempotencyKey: string | undefined) {
  const payment = await paymentOr404(ctx, paymentId);
  const card = checkCard(body);
  return attemptCard(
    ctx,
    { caller: `payment:${payment.id}`, key: idempotencyKey, route: 'POST /v1/payment/complete', body, card, cvc: body.cvc, billingInfo: body.billingInfo },
    () => paymentOr404(ctx, paymentId),
  );
}

/** GET /v1/payment/{urlId}: the hosted checkout's view (public; the urlId is the capability). */
export async function getCheckout(ctx: AppContext, urlId: string): Promise<CheckoutView> {
  const row = await findPaymentByUrlId(ctx.db, urlId);
  if (!row) throw notFound(paymentMessages.notFound, 'payment_not_found');
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
export async function payByWallet(ctx: AppContext, callerId: string, paymentId: string, body: KestrelPayBody, idempotencyKey: string | undefined) {
  if (body.userId !== undefined && body.userId !== callerId) throw forbidden(checkoutMessages.userMismatch);
  const payer = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!payer) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const payment = await paymentOr404(ctx, paymentId);
  if (payer.id === payment.accountId) throw badRequest(checkoutMessages.ownStore, undefined, 'own_store');
  let fresh: PaymentRow | undefined;
  return collectByWallet(ctx, {
    idempotency: { caller: `user:${callerId}`, key: idempotencyKey, route: 'POST /v1/payment/complete/kestrel', body: { ...body, tpin: undefined, userId: callerId, paymentId: payment.id } },
    payer,
    userId: callerId,
    tpin: body.tpin,
    prepare: async () => {
      fresh = await paymentOr404(ctx, paymentId);
      assertPayable(fresh);
      return gatewayCollectible(ctx, fresh, undefined);
    },
    refused: paymentRefusals(ctx, () => fresh),
  });
}

/** POST /v1/payment/web-pay/complete/direct: create the payment and charge the card in one call. */
export async function payDirect(ctx: AppContext, store: GatewayStore, body: DirectPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  const card = checkCard(body);
  await assertFeeFits(ctx, store.accountId, amountCents);
  const { type: _type, brand: _brand, number: _number, expiresIn: _expiresIn, cvc: _cvc, billingInfo: _billing, ...webPay } = body;
  return attemptCard(
    ctx,
    { caller: `store:${store.id}`, key: idempotencyKey, route: 'POST /v1/payment/web-pay/complete/direct', body: { ...body, amount: amountCents }, card, cvc: body.cvc, billingInfo: body.billingInfo },
    async () => {
      const taken = await orderTaken(ctx, store, body.orderId);
      if (taken) throw taken;
      try {
        const created = await inTransaction(ctx.db, (trx) => insertPayment(trx, store, webPay, amountCents));
        return paymentOr404(ctx, created.paymentId);
      } catch (error) {
        if (isUniqueViolation(error, 'payments_store_order_key')) throw (await orderTaken(ctx, store, body.orderId)) ?? error;
        throw error;
      }
    },
  );
}


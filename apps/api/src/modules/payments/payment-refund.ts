import { asCents, asCurrency, refundMessages, REFUND_ERROR_CODES, type OperatorRefundBody, type OwnerRefundBody, type RefundBody, type RefundView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { assertNotOwnAccount, holdsAccount, isUuid } from '../../http/ownership.ts';
import { checkTpin } from '../accounts/tpin.ts';
import { userNameOf } from '../users/users.service.ts';
import type { GatewayStore } from '../stores/store-key.guard.ts';
import { refund, type Refundable, type RefundAsk } from './collect/refund.ts';
import { maskedNumber } from './masked-source.ts';
import { findPayment, type PaymentRow } from './payments.repository.ts';
import { refundsByRecord, refundView } from './refund-views.ts';

/*
 * The gateway's side of the refund pipeline (collect/refund.ts): a gateway payment as what is
 * refunded, and who may refund it — its store (store API), its owner (portal, with the
 * receiving account's TPIN), an operator (console, with a reason). Link payments have theirs
 * in payment-requests/link-refund.ts.
 */

/** The refund routes' 404: no such payment, or not the caller's (another store's, another owner's). */
export const paymentNotFound = () => refuse(REFUND_ERROR_CODES.notFound, { message: refundMessages.notFound });

/** A gateway payment as the refund pipeline's record. */
export function gatewayRefundable(payment: PaymentRow): Refundable {
  return {
    target: 'payment',
    recordId: payment.id,
    ownerAccountId: payment.accountId,
    currency: asCurrency(payment.currency),
    amountCents: asCents(payment.amountCents),
    refundReservedCents: asCents(payment.refundReservedCents),
    paid: payment.paymentStatus === 'success',
    paidAt: payment.paidAt,
    paidLedgerTransactionId: payment.paidLedgerTransactionId,
    cardMasked: payment.paymentSourceType === 'card' ? maskedNumber(payment) : null,
    label: `order ${payment.orderId} at ${payment.storeName}`,
    audit: { subjectType: 'payment', subjectId: payment.id, details: { storeId: payment.publicStoreId, orderId: payment.orderId } },
  };
}

export async function findGatewayPayment(ctx: AppContext, paymentId: string): Promise<PaymentRow | undefined> {
  return isUuid(paymentId) ? findPayment(ctx.db, paymentId) : undefined;
}

/** A user's name as a refund shows who made it. */
export async function userDisplayName(ctx: AppContext, userId: string): Promise<string> {
  const user = await userNameOf(ctx.db, userId);
  return user ? `${user.firstName} ${user.lastName}`.trim() : 'Account owner';
}

/** Who an operator's refund shows as its maker (the audit trail names the operator). */
export const OPERATOR_REFUND_NAME = 'Kestrel support';

const askOf = (body: RefundBody | OwnerRefundBody | OperatorRefundBody) => ({ amountCents: body.amount, currency: body.currency, reason: body.reason });

/** POST /v1/payment/refund/{paymentId}: the store refunds one of its payments (Idempotency-Key required). */
export async function refundForStore(ctx: AppContext, store: GatewayStore, paymentId: string, body: RefundBody, key: string | undefined) {
  if (!key) throw refuse(REFUND_ERROR_CODES.idempotencyKeyRequired, { message: refundMessages.idempotencyKeyRequired });
  const payment = await findGatewayPayment(ctx, paymentId);
  if (!payment || payment.storeId !== store.id) throw paymentNotFound();
  return refund(ctx, gatewayRefundable(payment), {
    ...askOf(body),
    by: { kind: 'store', userId: null, name: store.storeName },
    idempotency: { caller: `store:${store.id}`, key, route: 'POST /v1/payment/refund', body: { ...body, paymentId: payment.id } },
  });
}

/** The owner's refund of a payment into one of their accounts, with that account's TPIN (counted, with lockout). */
export function ownerAsk(ctx: AppContext, userId: string, name: string, accountId: string, recordId: string, body: OwnerRefundBody, key: string | undefined): RefundAsk {
  return {
    ...askOf(body),
    by: { kind: 'owner', userId, name },
    idempotency: { caller: `user:${userId}`, key, route: 'POST /v1/payment/details/refund', body: { ...body, tpin: undefined, paymentId: recordId } },
    authorize: () => checkTpin(ctx.db, ctx.config.secretKey, accountId, body.tpin, userId),
  };
}

/** An operator's refund on a customer's behalf: a reason, never on an account the operator holds. */
export function operatorAsk(operatorId: string, recordId: string, body: OperatorRefundBody, key: string | undefined): RefundAsk {
  return {
    ...askOf(body),
    by: { kind: 'operator', userId: operatorId, name: OPERATOR_REFUND_NAME },
    idempotency: { caller: `user:${operatorId}`, key, route: 'POST /v1/operator/payments/refund', body: { ...body, paymentId: recordId } },
  };
}

/** The owner's gateway payment refund (the refunds module routes link payments to the link's side). */
export async function refundGatewayForOwner(ctx: AppContext, userId: string, payment: PaymentRow, body: OwnerRefundBody, key: string | undefined) {
  if (!(await holdsAccount(ctx.db, userId, payment.accountId))) throw paymentNotFound();
  return refund(ctx, gatewayRefundable(payment), ownerAsk(ctx, userId, await userDisplayName(ctx, userId), payment.accountId, payment.id, body, key));
}

export async function refundGatewayForOperator(ctx: AppContext, operatorId: string, payment: PaymentRow, body: OperatorRefundBody, key: string | undefined) {
  await assertNotOwnAccount(ctx.db, operatorId, payment.accountId);
  return refund(ctx, gatewayRefundable(payment), operatorAsk(operatorId, payment.id, body, key));
}

/** A gateway payment's refunds, newest first. */
export async function gatewayRefunds(ctx: AppContext, payment: PaymentRow): Promise<RefundView[]> {
  return ((await refundsByRecord(ctx.db, 'payment', [payment.id])).get(payment.id) ?? []).map(refundView);
}

/** GET /v1/payment/refunds/{paymentId} for a store: its own payments only. */
export async function listRefundsForStore(ctx: AppContext, store: GatewayStore, paymentId: string): Promise<RefundView[]> {
  const payment = await findGatewayPayment(ctx, paymentId);
  if (!payment || payment.storeId !== store.id) throw paymentNotFound();
  return gatewayRefunds(ctx, payment);
}

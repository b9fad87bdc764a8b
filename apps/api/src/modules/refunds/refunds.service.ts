import { asCents, centsToMajor, type OperatorPaymentView, type OperatorRefundBody, type OwnerRefundBody, type RefundView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { holdsAccount } from '../../http/ownership.ts';
import { accountNumberOf } from '../accounts/accounts.service.ts';
import {
  findGatewayPayment,
  gatewayRefunds,
  paymentNotFound,
  refundGatewayForOperator,
  refundGatewayForOwner,
} from '../payments/payment-refund.ts';
import { findLinkPayment, linkPaymentRefunds, refundLinkPaymentForOperator, refundLinkPaymentForOwner } from '../payment-requests/link-refund.ts';
import { refundsByRecord, refundSummary } from '../payments/refund-views.ts';

/*
 * The refund routes' services where a payment may be a gateway payment or a payment made
 * through a link (the portal owner's and the operator's routes name either by its id): the
 * gateway's side is payments/payment-refund.ts, the link's payment-requests/link-refund.ts,
 * both on the one refund pipeline (payments/collect/refund.ts).
 */

/** POST /v1/payment/details/{paymentId}/refund: the signed-in owner, with the receiving account's TPIN. */
export async function refundForOwner(ctx: AppContext, userId: string, paymentId: string, body: OwnerRefundBody, key: string | undefined) {
  const payment = await findGatewayPayment(ctx, paymentId);
  if (payment) return refundGatewayForOwner(ctx, userId, payment, body, key);
  const link = await findLinkPayment(ctx, paymentId);
  if (link) return refundLinkPaymentForOwner(ctx, userId, link, body, key);
  throw paymentNotFound();
}

/** POST /v1/operator/payments/{paymentId}/refund: on a customer's behalf, with a reason. */
export async function refundForOperator(ctx: AppContext, operatorId: string, paymentId: string, body: OperatorRefundBody, key: string | undefined) {
  const payment = await findGatewayPayment(ctx, paymentId);
  if (payment) return refundGatewayForOperator(ctx, operatorId, payment, body, key);
  const link = await findLinkPayment(ctx, paymentId);
  if (link) return refundLinkPaymentForOperator(ctx, operatorId, link, body, key);
  throw paymentNotFound();
}

/** GET /v1/payment/refunds/{paymentId} for the signed-in owner (a gateway or link payment into an account they hold). */
export async function listRefundsForOwner(ctx: AppContext, userId: string, paymentId: string): Promise<RefundView[]> {
  const payment = await findGatewayPayment(ctx, paymentId);
  if (payment) {
    if (!(await holdsAccount(ctx.db, userId, payment.accountId))) throw paymentNotFound();
    return gatewayRefunds(ctx, payment);
  }
  const link = await findLinkPayment(ctx, paymentId);
  if (link && (await holdsAccount(ctx.db, userId, link.accountId))) return linkPaymentRefunds(ctx, link);
  throw paymentNotFound();
}

/** GET /v1/operator/payments/{paymentId}: a payment as the console refunds it. */
export async function operatorPayment(ctx: AppContext, paymentId: string): Promise<OperatorPaymentView> {
  const payment = await findGatewayPayment(ctx, paymentId);
  if (payment) {
    const refunds = (await refundsByRecord(ctx.db, 'payment', [payment.id])).get(payment.id);
    return {
      paymentId: payment.id,
      kind: 'gateway',
      paymentStatus: payment.paymentStatus,
      amount: centsToMajor(asCents(payment.amountCents)),
      currency: payment.currency,
      fee: centsToMajor(asCents(payment.feeCents ?? 0)),
      accountNumber: payment.accountNumber,
      storeName: payment.storeName,
      orderId: payment.orderId,
      paidAt: payment.paidAt ? payment.paidAt.toISOString() : null,
      ...refundSummary({ amountCents: payment.amountCents, refundReservedCents: payment.refundReservedCents, paid: payment.paymentStatus === 'success' }, refunds),
    };
  }
  const link = await findLinkPayment(ctx, paymentId);
  if (!link) throw paymentNotFound();
  const refunds = (await refundsByRecord(ctx.db, 'link', [link.id])).get(link.id);
  const account = await accountNumberOf(ctx.db, link.accountId);
  return {
    paymentId: link.id,
    kind: 'link',
    paymentStatus: 'success',
    amount: centsToMajor(asCents(link.amountCents)),
    currency: link.currency,
    fee: centsToMajor(asCents(link.feeCents)),
    accountNumber: account.accountNumber,
    storeName: null,
    orderId: null,
    paidAt: link.createdAt.toISOString(),
    ...refundSummary({ amountCents: link.amountCents, refundReservedCents: link.refundReservedCents, paid: true }, refunds),
  };
}

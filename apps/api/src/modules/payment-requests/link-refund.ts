import { asCents, asCurrency, type OperatorRefundBody, type OwnerRefundBody, type RefundView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { assertNotOwnAccount, holdsAccount, isUuid } from '../../http/ownership.ts';
import { refund, type Refundable } from '../payments/collect/refund.ts';
import { operatorAsk, ownerAsk, paymentNotFound, userDisplayName } from '../payments/payment-refund.ts';
import { refundsByRecord, refundView } from '../payments/refund-views.ts';

/*
 * A payment made through a payment-request link as what the refund pipeline refunds
 * (payments/collect/refund.ts): its owner refunds it from the portal with the receiving
 * account's TPIN, an operator from the console; a wallet payer gets the money back in that
 * wallet, a card payer on the card. Links have no store, so no store callback.
 */

export function findLinkPayment(ctx: AppContext, linkPaymentId: string) {
  if (!isUuid(linkPaymentId)) return Promise.resolve(undefined);
  return ctx.db
    .selectFrom('paymentRequestPayments')
    .innerJoin('paymentRequests', 'paymentRequests.id', 'paymentRequestPayments.paymentRequestId')
    .select([
      'paymentRequestPayments.id',
      'paymentRequestPayments.accountId',
      'paymentRequestPayments.currency',
      'paymentRequestPayments.amountCents',
      'paymentRequestPayments.feeCents',
      'paymentRequestPayments.refundReservedCents',
      'paymentRequestPayments.ledgerTransactionId',
      'paymentRequestPayments.sourceType',
      'paymentRequestPayments.sourceFirst6',
      'paymentRequestPayments.sourceLast4',
      'paymentRequestPayments.sourceLength',
      'paymentRequestPayments.createdAt',
      'paymentRequests.id as paymentRequestId',
      'paymentRequests.paymentPurpose',
    ])
    .where('paymentRequestPayments.id', '=', linkPaymentId)
    .executeTakeFirst();
}
export type LinkPaymentRecord = NonNullable<Awaited<ReturnType<typeof findLinkPayment>>>;

export function linkRefundable(row: LinkPaymentRecord): Refundable {
  return {
    target: 'link',
    recordId: row.id,
    ownerAccountId: row.accountId,
    currency: asCurrency(row.currency),
    amountCents: asCents(row.amountCents),
    refundReservedCents: asCents(row.refundReservedCents),
    paid: true,
    paidAt: row.createdAt,
    paidLedgerTransactionId: row.ledgerTransactionId,
    cardMasked: row.sourceType === 'card' ? `${row.sourceFirst6 ?? ''}${'*'.repeat(Math.max(0, (row.sourceLength ?? 16) - 10))}${row.sourceLast4 ?? ''}` : null,
    label: `payment link "${row.paymentPurpose}"`,
    audit: { subjectType: 'payment_request_payment', subjectId: row.id, details: { paymentRequestId: row.paymentRequestId } },
  };
}

export async function refundLinkPaymentForOwner(ctx: AppContext, userId: string, row: LinkPaymentRecord, body: OwnerRefundBody, key: string | undefined) {
  if (!(await holdsAccount(ctx.db, userId, row.accountId))) throw paymentNotFound();
  return refund(ctx, linkRefundable(row), ownerAsk(ctx, userId, await userDisplayName(ctx, userId), row.accountId, row.id, body, key));
}

export async function refundLinkPaymentForOperator(ctx: AppContext, operatorId: string, row: LinkPaymentRecord, body: OperatorRefundBody, key: string | undefined) {
  await assertNotOwnAccount(ctx.db, operatorId, row.accountId);
  return refund(ctx, linkRefundable(row), operatorAsk(operatorId, row.id, body, key));
}

export async function linkPaymentRefunds(ctx: AppContext, row: LinkPaymentRecord): Promise<RefundView[]> {
  return ((await refundsByRecord(ctx.db, 'link', [row.id])).get(row.id) ?? []).map(refundView);
}

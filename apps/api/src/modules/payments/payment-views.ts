import { asCents, centsToMajor, type PaymentCounters, type PaymentView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedAccount, holdsAccount } from '../../http/ownership.ts';
import type { GatewayStore } from '../stores/store-key.guard.ts';
import { findOwnedStore } from '../stores/stores.service.ts';
import { paymentOr404 } from './payments.service.ts';
import { maskedNumber } from './masked-source.ts';
import { countPayments, listPayments, paymentErrorsOf, type PaymentListPage, type PaymentRow } from './payments.repository.ts';
import { refundsByRecord, refundSummary, type RefundRow } from './refund-views.ts';

/* How payments are shown to their store and owner: one payment, and the lists. */


type ErrorRow = Awaited<ReturnType<typeof paymentErrorsOf>>[number];

function paymentView(row: PaymentRow, errors: ErrorRow[], refunds: RefundRow[]): PaymentView {
  return {
    _id: row.id,
    paymentId: row.id,
    paymentStatus: row.paymentStatus,
    paymentSourceType: row.paymentSourceType,
    paymentSource:
      row.paymentSourceType && row.sourceBrand
        ? { type: row.paymentSourceType, brand: row.sourceBrand, number: maskedNumber(row), expiresIn: row.sourceExpiresIn, billingInfo: row.billingInfo ?? null }
        : null,
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    fee: row.feeCents === null ? null : { amount: centsToMajor(asCents(row.feeCents)), currency: row.currency },
    orderId: row.orderId,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    customerAddress: row.customerAddress,
    productName: row.productName,
    cancelUrl: row.cancelUrl,
    valueA: row.valueA,
    urlId: row.urlId,
    transactionId: row.transactionId,
    paymentErrors: errors.map((error) => ({
      errorMessage: error.errorMessage,
      errorSource: { brand: error.sourceBrand, type: error.sourceType, number: error.sourceNumberMasked },
      errorAt: error.errorAt.toISOString(),
    })),
    storeId: row.publicStoreId,
    storeName: row.storeName,
    accountKey: row.accountNumber,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    ...refundSummary({ amountCents: row.amountCents, refundReservedCents: row.refundReservedCents, paid: row.paymentStatus === 'success' }, refunds),
  };
}

async function withErrors(ctx: AppContext, rows: PaymentRow[]): Promise<PaymentView[]> {
  const ids = rows.map((row) => row.id);
  const [errors, refunds] = await Promise.all([paymentErrorsOf(ctx.db, ids), refundsByRecord(ctx.db, 'payment', ids)]);
  const byPayment = new Map<string, ErrorRow[]>();
  for (const error of errors) byPayment.set(error.paymentId, [...(byPayment.get(error.paymentId) ?? []), error]);
  return rows.map((row) => paymentView(row, byPayment.get(row.id) ?? [], refunds.get(row.id) ?? []));
}

/** GET /v1/payment/paymentId/{paymentId} for a store: its own payments only. */
export async function getPaymentForStore(ctx: AppContext, store: GatewayStore, paymentId: string): Promise<PaymentView> {
  const row = await paymentOr404(ctx, paymentId);
  if (row.storeId !== store.id) throw refuse('payment_not_found');
  return (await withErrors(ctx, [row]))[0]!;
}

/** GET /v1/payment/paymentId/{paymentId} for a signed-in user: payments into an account they own. */
export async function getPaymentForOwner(ctx: AppContext, userId: string, paymentId: string): Promise<PaymentView> {
  const row = await paymentOr404(ctx, paymentId);
  if (!(await holdsAccount(ctx.db, userId, row.accountId))) throw refuse('payment_not_found');
  return (await withErrors(ctx, [row]))[0]!;
}

/** POST /v1/payment/account: payments into one of the caller's accounts, newest first. */
export async function listAccountPayments(ctx: AppContext, userId: string, accountEmail: string, page: PaymentListPage = {}): Promise<PaymentView[]> {
  const account = await findOwnedAccount(ctx.db, { userId }, accountEmail);
  if (!account) throw refuse('account_not_found');
  return withErrors(ctx, await listPayments(ctx.db, { accountId: account.id }, page));
}

/** GET /v1/payment/store/{storeId}: one of the caller's stores' payments, newest first. */
export async function listStorePayments(ctx: AppContext, userId: string, storeId: string, page: PaymentListPage = {}): Promise<PaymentView[]> {
  const store = await findOwnedStore(ctx.db, userId, storeId);
  if (!store) throw refuse('store_not_found');
  return withErrors(ctx, await listPayments(ctx.db, { storeId: store.id }, page));
}

/** The payments list's counters over every payment of one of the caller's accounts (`accountEmail`) or stores (`storeId`). */
export async function paymentCountersOf(ctx: AppContext, userId: string, owner: { accountEmail: string } | { storeId: string }): Promise<PaymentCounters> {
  if ('accountEmail' in owner) {
    const account = await findOwnedAccount(ctx.db, { userId }, owner.accountEmail);
    if (!account) throw refuse('account_not_found');
    return countPayments(ctx.db, { accountId: account.id });
  }
  const store = await findOwnedStore(ctx.db, userId, owner.storeId);
  if (!store) throw refuse('store_not_found');
  return countPayments(ctx.db, { storeId: store.id });
}

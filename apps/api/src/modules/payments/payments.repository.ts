import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

const paymentColumns = [
  'payments.id',
  'payments.storeId',
  'payments.accountId',
  'payments.urlId',
  'payments.orderId',
  'payments.currency',
  'payments.amountCents',
  'payments.feeCents',
  'payments.customerName',
  'payments.customerEmail',
  'payments.customerPhone',
  'payments.customerAddress',
  'payments.productName',
  'payments.cancelUrl',
  'payments.valueA',
  'payments.paymentStatus',
  'payments.paymentSourceType',
  'payments.sourceBrand',
  'payments.sourceFirst6',
  'payments.sourceLast4',
  'payments.sourceLength',
  'payments.sourceExpiresIn',
  'payments.billingInfo',
  'payments.transactionId',
  'payments.paidAt',
  'payments.createdAt',
  'payments.attemptLeaseUntil',
  'stores.storeId as publicStoreId',
  'stores.storeName',
  'stores.callbackUrl',
  'stores.storeKeyEncrypted',
  'stores.logoStoredName',
  'accounts.accountNumber',
  'accounts.gatewayFeeFixedCents',
  'accounts.gatewayFeePercent',
] as const;

function paymentsWithStore(db: Db | Trx) {
  return db
    .selectFrom('payments')
    .innerJoin('stores', 'stores.id', 'payments.storeId')
    .innerJoin('accounts', 'accounts.id', 'payments.accountId')
    .select(paymentColumns);
}

export function findPayment(db: Db | Trx, paymentId: string) {
  return paymentsWithStore(db).where('payments.id', '=', paymentId).executeTakeFirst();
}
export function findPaymentByUrlId(db: Db | Trx, urlId: string) {
  return paymentsWithStore(db).where('payments.urlId', '=', urlId).executeTakeFirst();
}

export type PaymentRow = NonNullable<Awaited<ReturnType<typeof findPayment>>>;

export function findPaymentByOrder(db: Db | Trx, storeId: string, orderId: string) {
  return db.selectFrom('payments').select(['id']).where('storeId', '=', storeId).where('orderId', '=', orderId).executeTakeFirst();
}

export const PAYMENT_LIST_LIMIT = 500;

export function listPayments(db: Db, where: { accountId: string } | { storeId: string }) {
  let query = paymentsWithStore(db);
  query = 'accountId' in where ? query.where('payments.accountId', '=', where.accountId) : query.where('payments.storeId', '=', where.storeId);
  return query.orderBy('payments.createdAt', 'desc').orderBy('payments.id').limit(PAYMENT_LIST_LIMIT).execute();
}

export function paymentErrorsOf(db: Db | Trx, paymentIds: string[]) {
  if (paymentIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('paymentErrors').selectAll().where('paymentId', 'in', paymentIds).orderBy('errorAt').orderBy('id').execute();
}

/** The owner's gateway fee settings and wallet, for a store's account. */
export function ownerFeeSettings(db: Db | Trx, accountId: string) {
  return db.selectFrom('accounts').select(['id', 'gatewayFeeFixedCents', 'gatewayFeePercent']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

/**
 * Takes the payment for one card attempt: only an unpaid payment with no attempt in
 * progress (or one whose lease ran out, e.g. after a crash). Answers false when another
 * attempt holds it or it is paid.
 */
export async function leasePayment(db: Db, paymentId: string, seconds: number): Promise<boolean> {
  const row = await db
    .updateTable('payments')
    .set({ attemptLeaseUntil: new Date(Date.now() + seconds * 1000) })
    .where('id', '=', paymentId)
    .where('paymentStatus', '=', 'initiate')
    .where((eb) => eb.or([eb('attemptLeaseUntil', 'is', null), eb('attemptLeaseUntil', '<', new Date())]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function releaseLease(db: Db | Trx, paymentId: string): Promise<void> {
  await db.updateTable('payments').set({ attemptLeaseUntil: null }).where('id', '=', paymentId).execute();
}

/** Whether the payment was paid by the charge with this processor reference (its ledger transaction names it). */
export async function paymentChargeRecorded(db: Db, paymentId: string, processorReference: string): Promise<boolean> {
  const row = await db
    .selectFrom('payments')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'payments.paidLedgerTransactionId')
    .select('payments.id')
    .where('payments.id', '=', paymentId)
    .where(sql<string>`ledger_transactions.metadata->>'processorReference'`, '=', processorReference)
    .executeTakeFirst();
  return row !== undefined;
}

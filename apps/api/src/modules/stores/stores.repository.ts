import type { Expression, Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { StoresTable, StoreStatus } from '../../db/schema.ts';
import { heldBy } from '../../http/ownership.ts';

const storeColumns = [
  'stores.id',
  'stores.storeId',
  'stores.accountId',
  'stores.storeName',
  'stores.storeUrl',
  'stores.callbackUrl',
  'stores.logoStoredName',
  'stores.storeKeyEncrypted',
  'stores.previousStoreKeyEncrypted',
  'stores.previousStoreKeyExpiresAt',
  'stores.storeKeyRotatedAt',
  'stores.notifyOnPayment',
  'stores.status',
  'stores.statusReason',
  'stores.createdAt',
  'accounts.accountEmail',
  'accounts.accountNumber',
  // The owner's gateway fee, so the gateway guard's one read gives a payment's fee check too.
  'accounts.gatewayFeeFixedCents',
  'accounts.gatewayFeePercent',
] as const;

function storesWithAccount(db: Db | Trx) {
  return db.selectFrom('stores').innerJoin('accounts', 'accounts.id', 'stores.accountId').select(storeColumns);
}
export type StoreRow = Awaited<ReturnType<typeof findStoreByPublicId>> & {};

/** A store by its public storeId, whoever owns it (for the gateway guard and the operators). */
export function findStoreByPublicId(db: Db | Trx, storeId: string) {
  return storesWithAccount(db).where('stores.storeId', '=', storeId).executeTakeFirst();
}

/** A store by its public storeId, only when the caller owns the store's account. */
export function findOwnedStore(db: Db | Trx, userId: string, storeId: string) {
  return storesWithAccount(db)
    .where('stores.storeId', '=', storeId)
    .where(heldBy(userId, 'stores.accountId'))
    .executeTakeFirst();
}

/** The caller's account with this e-mail (case-insensitive), or undefined. */
export function listAccountStores(db: Db | Trx, accountId: string) {
  return storesWithAccount(db).where('stores.accountId', '=', accountId).orderBy('stores.createdAt', 'desc').orderBy('stores.id').execute();
}

export function listStoresByStatus(db: Db, status: StoreStatus, limit = 200) {
  return storesWithAccount(db)
    .where('stores.status', '=', status)
    .orderBy('stores.createdAt')
    .limit(limit)
    .execute();
}

/** The owner account's payment counters for the store list. */
/** Gateway payments into an account (every store it owns): all, and paid. `accountId` may be a column of an outer query. */
export function accountPaymentCountersQuery(db: Db, accountId: string | Expression<string>) {
  return db
    .selectFrom('payments')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('paidLedgerTransactionId').as('success')])
    .where('accountId', '=', accountId);
}

export async function accountPaymentCounters(db: Db, accountId: string): Promise<{ total: number; success: number }> {
  const row = await accountPaymentCountersQuery(db, accountId).executeTakeFirstOrThrow();
  return { total: Number(row.total), success: Number(row.success) };
}

/** The gateway list's refund counters: refunds of the account's gateway payments that succeeded, and their sum in cents. */
export async function accountRefundCounters(db: Db, accountId: string): Promise<{ count: number; cents: number }> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('amountCents'), eb.lit(0)).as('cents')])
    .where('accountId', '=', accountId)
    .where('paymentId', 'is not', null)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), cents: Number(row.cents) };
}

export function storeDocumentsOf(db: Db, storeIds: string[]) {
  if (storeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('storeDocuments').select(['id', 'storeId']).where('storeId', 'in', storeIds).orderBy('createdAt').orderBy('id').execute();
}

export function findStoreDocument(db: Db, storeId: string, documentId: string) {
  return db
    .selectFrom('storeDocuments')
    .innerJoin('stores', 'stores.id', 'storeDocuments.storeId')
    .select(['storeDocuments.storedName', 'storeDocuments.mimeType'])
    .where('stores.storeId', '=', storeId)
    .where('storeDocuments.id', '=', documentId)
    .executeTakeFirst();
}

/** The status of the store a payment belongs to, by the payment's id or its checkout urlId (for the checkout's suspension check). */
export function storeStatusOfPayment(db: Db | Trx, by: { paymentId: string } | { urlId: string }) {
  const query = db.selectFrom('payments').innerJoin('stores', 'stores.id', 'payments.storeId').select(['stores.status', 'stores.statusReason']);
  return ('paymentId' in by ? query.where('payments.id', '=', by.paymentId) : query.where('payments.urlId', '=', by.urlId)).executeTakeFirst();
}

/** The account's latest `limit` stores, newest first. */
export function recentStoresOf(db: Db, accountId: string, limit: number) {
  return db.selectFrom('stores').select(['id', 'storeId', 'storeName', 'status', 'createdAt']).where('accountId', '=', accountId).orderBy('createdAt', 'desc').limit(limit).execute();
}

/** Inserts a store and its documents in `trx`; answers the store's row id. */
export async function insertStore(trx: Trx, store: Insertable<StoresTable>, documents: readonly { storedName: string; mimeType: string; sizeBytes: number }[]): Promise<{ id: string }> {
  const row = await trx.insertInto('stores').values(store).returning('id').executeTakeFirstOrThrow();
  await trx
    .insertInto('storeDocuments')
    .values(documents.map((document) => ({ storeId: row.id, storedName: document.storedName, mimeType: document.mimeType, sizeBytes: document.sizeBytes })))
    .execute();
  return row;
}

/** The first store with this name of the account with this user name (the demo store). */
export function findStoreOfUserName(db: Db, userName: string, storeName: string) {
  return db
    .selectFrom('stores')
    .innerJoin('accounts', 'accounts.id', 'stores.accountId')
    .select(['stores.storeId', 'stores.storeKeyEncrypted'])
    .where('accounts.userName', '=', userName)
    .where('stores.storeName', '=', storeName)
    .orderBy('stores.createdAt')
    .executeTakeFirst();
}

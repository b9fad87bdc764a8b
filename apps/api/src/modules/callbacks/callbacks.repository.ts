import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

/*
 * The operator console's reads of the callback queue (modules/operator/callbacks-queue.service.ts),
 * here beside the tables they read.
 */

/**
 * A failing callback delivery: given up ('failed'), or still waiting for a retry after at
 * least one failed attempt. The overview's count and the queue below both use this, so the
 * number on the overview is the length of the list behind it.
 */
export const failingDelivery = sql<boolean>`(callback_deliveries.state = 'failed' OR (callback_deliveries.state = 'pending' AND callback_deliveries.attempts > 0))`;

/** A page of failing deliveries, newest first, with their stores, and the total. */
export async function failingDeliveriesPage(db: Db, query: { page: number; pageSize: number }) {
  const base = db.selectFrom('callbackDeliveries').innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId').where(failingDelivery);
  const [total, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    base
      .select([
        'callbackDeliveries.id',
        'stores.storeId',
        'stores.storeName',
        'callbackDeliveries.paymentId',
        'callbackDeliveries.targetUrl',
        'callbackDeliveries.state',
        'callbackDeliveries.attempts',
        'callbackDeliveries.nextAttemptAt',
        'callbackDeliveries.createdAt',
      ])
      .orderBy('callbackDeliveries.createdAt', 'desc')
      .orderBy('callbackDeliveries.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(total.count), rows };
}

/** Each delivery's latest attempt only. */
export function latestAttemptsOf(db: Db, deliveryIds: number[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('callbackAttempts')
    .select(['deliveryId', 'attemptedAt', 'statusCode', 'error'])
    .distinctOn('deliveryId')
    .where('deliveryId', 'in', deliveryIds)
    .orderBy('deliveryId')
    .orderBy('attemptedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The delivery with its store, its row taken FOR UPDATE in `trx`. */
export function lockDeliveryWithStore(trx: Trx, deliveryId: number) {
  return trx
    .selectFrom('callbackDeliveries')
    .innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId')
    .select(['callbackDeliveries.state', 'callbackDeliveries.targetUrl', 'callbackDeliveries.nextAttemptAt', 'callbackDeliveries.storeId as storeRowId', 'stores.storeId', 'stores.callbackUrl', 'stores.accountId'])
    .where('callbackDeliveries.id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst();
}

/** The encrypted key of the store a gateway payment belongs to (the development listener's check). */
export function storeKeyOfPayment(db: Db, paymentId: string) {
  return db.selectFrom('payments').innerJoin('stores', 'stores.id', 'payments.storeId').select('stores.storeKeyEncrypted').where('payments.id', '=', paymentId).executeTakeFirst();
}

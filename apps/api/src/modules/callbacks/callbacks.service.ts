import type { CallbackDeliveryView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { findOwnedStore } from '../stores/stores.service.ts';

// The operator console reads the queue through these (lint keeps them out of its repository).
export { failingDeliveriesPage, failingDelivery, latestAttemptsOf, lockDeliveryWithStore } from './callbacks.repository.ts';

export const DELIVERY_LIST_LIMIT = 20;

async function ownedStoreOr404(ctx: AppContext, userId: string, storeId: string) {
  const store = await findOwnedStore(ctx.db, userId, storeId);
  if (!store) throw refuse('store_not_found');
  return store;
}

/** GET /v1/payment_gateway_store/{storeId}/callbacks: the store's last 20 deliveries with every attempt. Owner only. */
export async function listDeliveries(ctx: AppContext, userId: string, storeId: string): Promise<CallbackDeliveryView[]> {
  const store = await ownedStoreOr404(ctx, userId, storeId);
  const deliveries = await ctx.db
    .selectFrom('callbackDeliveries')
    .selectAll()
    .where('storeId', '=', store.id)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(DELIVERY_LIST_LIMIT)
    .execute();
  const attempts = deliveries.length
    ? await ctx.db.selectFrom('callbackAttempts').selectAll().where('deliveryId', 'in', deliveries.map((row) => row.id)).orderBy('attemptedAt').orderBy('id').execute()
    : [];
  return deliveries.map((row) => ({
    _id: String(row.id),
    paymentId: row.paymentId,
    targetUrl: row.targetUrl,
    body: row.body,
    state: row.state,
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === row.id)
      .map((attempt) => ({ attemptedAt: attempt.attemptedAt.toISOString(), statusCode: attempt.statusCode, durationMs: attempt.durationMs, error: attempt.error })),
    nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** A delivery id from a path segment; anything that is not one matches no row. */
export const deliveryIdOf = (raw: string): number => (/^\d{1,15}$/.test(raw) ? Number(raw) : -1);

/**
 * Queues a delivery again, due now, to the store's current callback URL: the one way a
 * delivery is re-sent (the owner's re-send and the operator console both come here). Returns
 * undefined when the delivery is not this store's.
 */
export async function requeueDelivery(trx: Trx, deliveryId: number, store: { id: string; callbackUrl: string }) {
  return trx
    .updateTable('callbackDeliveries')
    .set({ state: 'pending', nextAttemptAt: new Date(), targetUrl: store.callbackUrl, deliveredAt: null })
    .where('id', '=', deliveryId)
    .where('storeId', '=', store.id)
    .returning(['id', 'state', 'targetUrl', 'nextAttemptAt'])
    .executeTakeFirst();
}

/** POST .../callbacks/{deliveryId}/resend: queue the same body again now (to the store's current callback URL). Owner only. */
export async function resendDelivery(ctx: AppContext, userId: string, storeId: string, deliveryId: string, ip: string): Promise<number> {
  const store = await ownedStoreOr404(ctx, userId, storeId);
  const id = deliveryIdOf(deliveryId);
  return inTransaction(ctx.db, async (trx) => {
    const updated = await requeueDelivery(trx, id, store);
    if (!updated) throw refuse('delivery_not_found');
    await recordAudit(trx, { actorUserId: userId, action: 'store.callback_resent', subjectType: 'store', subjectId: storeId, ip, details: { deliveryId: id } });
    return updated.id;
  });
}

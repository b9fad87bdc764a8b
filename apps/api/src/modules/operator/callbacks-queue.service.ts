import type { FailingCallbacksPage } from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { deliveryIdOf, requeueDelivery } from '../callbacks/callbacks.service.ts';

/**
 * A failing callback delivery: given up ('failed'), or still waiting for a retry after at
 * least one failed attempt. The overview's count and the queue below both use this, so the
 * number on the overview is the length of the list behind it.
 */
export const failingDelivery = sql<boolean>`(callback_deliveries.state = 'failed' OR (callback_deliveries.state = 'pending' AND callback_deliveries.attempts > 0))`;

/** GET /v1/operator/callbacks: failing deliveries, newest first, with each one's latest attempt. */
export async function listFailingCallbacks(ctx: AppContext, query: { page: number; pageSize: number }): Promise<FailingCallbacksPage> {
  const base = ctx.db.selectFrom('callbackDeliveries').innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId').where(failingDelivery);
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
  const ids = rows.map((row) => row.id);
  // Only each delivery's latest attempt: the store's own page lists them all.
  const latest = ids.length
    ? await ctx.db
        .selectFrom('callbackAttempts')
        .select(['deliveryId', 'attemptedAt', 'statusCode', 'error'])
        .distinctOn('deliveryId')
        .where('deliveryId', 'in', ids)
        .orderBy('deliveryId')
        .orderBy('attemptedAt', 'desc')
        .orderBy('id', 'desc')
        .execute()
    : [];
  const latestOf = new Map(latest.map((attempt) => [attempt.deliveryId, attempt]));
  return {
    items: rows.map((row) => {
      const attempt = latestOf.get(row.id);
      return {
        _id: String(row.id),
        storeId: row.storeId,
        storeName: row.storeName,
        paymentId: row.paymentId,
        targetUrl: row.targetUrl,
        state: row.state === 'failed' ? 'failed' : 'pending',
        attempts: row.attempts,
        lastAttempt: attempt ? { attemptedAt: attempt.attemptedAt.toISOString(), statusCode: attempt.statusCode, error: attempt.error } : null,
        nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
        createdAt: row.createdAt.toISOString(),
      };
    }),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(total.count),
  };
}

/**
 * POST /v1/operator/callbacks/{deliveryId}/resend: queue the delivery again, due now, through
 * the same requeue as the store owner's re-send; the worker sends it on its next tick. Audited
 * with the reason and the state before and after, in the same transaction.
 */
export async function resendFailingCallback(ctx: AppContext, operatorId: string, rawDeliveryId: string, reason: string, ip: string) {
  const id = deliveryIdOf(rawDeliveryId);
  return inTransaction(ctx.db, async (trx) => {
    const before = await trx
      .selectFrom('callbackDeliveries')
      .innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId')
      .select(['callbackDeliveries.state', 'callbackDeliveries.targetUrl', 'callbackDeliveries.nextAttemptAt', 'callbackDeliveries.storeId as storeRowId', 'stores.storeId', 'stores.callbackUrl', 'stores.accountId'])
      .where('callbackDeliveries.id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw refuse('delivery_not_found');
    await assertNotOwnAccount(trx, operatorId, before.accountId);
    const after = await requeueDelivery(trx, id, { id: before.storeRowId, callbackUrl: before.callbackUrl });
    if (!after) throw refuse('delivery_not_found');
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: 'callback.resent',
      subjectType: 'callback_delivery',
      subjectId: String(id),
      ip,
      details: {
        reason,
        storeId: before.storeId,
        before: { state: before.state, targetUrl: before.targetUrl, nextAttemptAt: before.nextAttemptAt.toISOString() },
        after: { state: after.state, targetUrl: after.targetUrl, nextAttemptAt: after.nextAttemptAt.toISOString() },
      },
    });
    return { _id: String(after.id), state: 'pending' as const, nextAttemptAt: after.nextAttemptAt.toISOString() };
  });
}

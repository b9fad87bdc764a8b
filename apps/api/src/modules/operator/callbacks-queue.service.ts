import type { FailingCallbacksPage } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { deliveryIdOf, failingDeliveriesPage, latestAttemptsOf, lockDeliveryWithStore, requeueDelivery } from '../callbacks/callbacks.service.ts';

/** GET /v1/operator/callbacks: failing deliveries, newest first, with each one's latest attempt. */
export async function listFailingCallbacks(ctx: AppContext, query: { page: number; pageSize: number }): Promise<FailingCallbacksPage> {
  const { total, rows } = await failingDeliveriesPage(ctx.db, query);
  // Only each delivery's latest attempt: the store's own page lists them all.
  const latest = await latestAttemptsOf(ctx.db, rows.map((row) => row.id));
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
    total,
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
    const before = await lockDeliveryWithStore(trx, id);
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

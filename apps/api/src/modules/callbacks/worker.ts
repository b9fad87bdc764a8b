import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { decryptStoreKey } from '../stores/store-key.ts';
import { sendCallback, type DeliveryResult } from './delivery.ts';

/** First retry after 30 s, doubling up to 12 h between attempts; given up 3 days after queueing. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_DELAY_MS = 12 * 60 * 60_000;
export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60_000;
/** How long a claimed delivery is held by the worker that claimed it (longer than a send). */
const CLAIM_MS = 60_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_DELAY_MS);
}

export interface DeliverOptions {
  now?: Date;
  limit?: number;
  /** Only these deliveries (a re-send, or a test that owns them). */
  deliveryIds?: number[];
}

/**
 * Sends the callbacks that are due. Due rows are claimed in a short transaction
 * (FOR UPDATE SKIP LOCKED, so several server processes share the work), sent with no
 * transaction open, and each attempt is recorded with the row's new state.
 */
export async function deliverDueCallbacks(ctx: AppContext, options: DeliverOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const claimed = await inTransaction(ctx.db, async (trx) => {
    let query = trx
      .selectFrom('callbackDeliveries')
      .innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId')
      .select(['callbackDeliveries.id', 'callbackDeliveries.targetUrl', 'callbackDeliveries.body', 'callbackDeliveries.attempts', 'callbackDeliveries.createdAt', 'stores.storeKeyEncrypted'])
      .where('callbackDeliveries.state', '=', 'pending')
      .where('callbackDeliveries.nextAttemptAt', '<=', now)
      .orderBy('callbackDeliveries.nextAttemptAt')
      .limit(options.limit ?? 20);
    if (options.deliveryIds) query = query.where('callbackDeliveries.id', 'in', options.deliveryIds.length ? options.deliveryIds : [-1]);
    const rows = await query.forUpdate('callbackDeliveries').skipLocked().execute();
    if (rows.length) {
      await trx
        .updateTable('callbackDeliveries')
        .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
        .where('id', 'in', rows.map((row) => row.id))
        .execute();
    }
    return rows;
  });

  await Promise.all(
    claimed.map(async (row) => {
      const attemptedAt = new Date();
      let result: DeliveryResult;
      try {
        result = await sendCallback(row.targetUrl, row.body, decryptStoreKey(ctx.config.secretKey, row.storeKeyEncrypted), ctx.config.allowPrivateCallbacks);
      } catch (error) {
        result = { ok: false, statusCode: null, durationMs: 0, error: error instanceof Error ? error.message : 'send failed' };
      }
      const attempts = row.attempts + 1;
      const next = new Date(now.getTime() + retryDelayMs(attempts));
      const givesUp = !result.ok && next.getTime() > row.createdAt.getTime() + RETRY_WINDOW_MS;
      await inTransaction(ctx.db, async (trx) => {
        await trx
          .insertInto('callbackAttempts')
          .values({ deliveryId: row.id, attemptedAt, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error })
          .execute();
        await trx
          .updateTable('callbackDeliveries')
          .set({
            attempts,
            lastAttemptAt: attemptedAt,
            state: result.ok ? 'delivered' : givesUp ? 'failed' : 'pending',
            deliveredAt: result.ok ? attemptedAt : null,
            nextAttemptAt: result.ok || givesUp ? sql<Date>`next_attempt_at` : next,
          })
          .where('id', '=', row.id)
          .execute();
      });
    }),
  );
  return claimed.length;
}

export interface CallbackWorker {
  stop(): Promise<void>;
}

/** Runs deliverDueCallbacks every `intervalMs` in this process until stopped. */
export function startCallbackWorker(ctx: AppContext, intervalMs = 1000): CallbackWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = deliverDueCallbacks(ctx)
      .then(() => undefined)
      .catch((error: unknown) => ctx.log.error({ err: error }, 'callback delivery failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

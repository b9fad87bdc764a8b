import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

/*
 * The notification events' queue, for the dispatcher (modules/notifications/dispatcher.ts),
 * which reaches it through notification-events.ts.
 */

/** The pending events due at `now`, in the order they fell due, at most `limit` (only `eventIds`, when given); the caller selects and locks. */
export function dueEvents(db: Db | Trx, now: Date, options: { limit: number; eventIds?: readonly number[] | undefined }) {
  let query = db.selectFrom('notificationEvents').where('state', '=', 'pending').where('nextAttemptAt', '<=', now).orderBy('nextAttemptAt').orderBy('id').limit(options.limit);
  if (options.eventIds) query = query.where('id', 'in', options.eventIds.length ? [...options.eventIds] : [-1]);
  return query;
}

export async function markEventsDispatched(trx: Trx, ids: readonly number[]): Promise<void> {
  await trx
    .updateTable('notificationEvents')
    .set({ state: 'dispatched', dispatchedAt: new Date(), attempts: sql<number>`attempts + 1`, lastError: null })
    .where('id', 'in', [...ids])
    .execute();
}

/** The event's attempts and state, its row taken FOR UPDATE in `trx`. */
export function lockEventAttempts(trx: Trx, eventId: number) {
  return trx.selectFrom('notificationEvents').select(['attempts', 'state']).where('id', '=', eventId).forUpdate().executeTakeFirst();
}

export async function recordEventAttempt(trx: Trx, eventId: number, attempt: { attempts: number; lastError: string; state: 'pending' | 'failed'; nextAttemptAt: Date }): Promise<void> {
  await trx.updateTable('notificationEvents').set(attempt).where('id', '=', eventId).execute();
}

/** Deletes up to `limit` dispatched or given-up events written before `cutoff`, oldest first; answers how many. */
export async function deleteFinishedEvents(db: Db, cutoff: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('notificationEvents')
    .where('id', 'in', (eb) => eb.selectFrom('notificationEvents').select('id').where('state', '<>', 'pending').where('createdAt', '<', cutoff).orderBy('createdAt').limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

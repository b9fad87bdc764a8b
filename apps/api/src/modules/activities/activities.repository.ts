import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

/** Appends an entry to an account's activity list; pass the transaction so it commits with the event. */
export async function recordActivity(db: Db | Trx, accountId: string, name: string, comment: string | null = null): Promise<void> {
  await recordActivities(db, [{ accountId, name, comment }]);
}

/** Several entries in one statement (e.g. a login's entry on each of the user's accounts). */
export async function recordActivities(db: Db | Trx, entries: readonly { accountId: string; name: string; comment: string | null }[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insertInto('activities').values([...entries]).execute();
}

/** The account's latest activities, newest first. */
export function latestActivities(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('activities')
    .select(['id', 'name', 'comment', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The account's latest activities by id, newest first (the operator's account page). */
export function latestActivitiesById(db: Db, accountId: string, limit: number) {
  return db.selectFrom('activities').select(['name', 'comment', 'createdAt']).where('accountId', '=', accountId).orderBy('id', 'desc').limit(limit).execute();
}

import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

/** Appends an entry to an account's activity list; pass the transaction so it commits with the event. */
export async function recordActivity(db: Db | Trx, accountId: string, name: string, comment: string | null = null): Promise<void> {
  await db.insertInto('activities').values({ accountId, name, comment }).execute();
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

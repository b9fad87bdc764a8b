import { type ActivityGroup } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedAccount } from '../../http/ownership.ts';
import { latestActivities } from './activities.repository.ts';

// Other modules write and read this module's tables through these (lint keeps them out of
// its repository).
export { latestActivitiesById, recordActivities, recordActivity } from './activities.repository.ts';

/** How many activities the list shows at most (the newest). */
export const ACTIVITY_LIST_LIMIT = 200;


/** GET /v1/activities?accountId=: the account's latest activities grouped by day, newest first. Owner only. */
export async function listActivities(ctx: AppContext, callerId: string, accountKey: string, limit = ACTIVITY_LIST_LIMIT): Promise<ActivityGroup[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountKey);
  if (!account) throw refuse('account_not_found');
  const rows = await latestActivities(ctx.db, account.id, limit);
  const groups: ActivityGroup[] = [];
  for (const row of rows) {
    const date = row.createdAt.toISOString();
    const day = date.slice(0, 10);
    let group = groups.at(-1);
    // Rows come newest first, so one day's rows are contiguous.
    if (group?._id !== day) {
      group = { _id: day, activities: [] };
      groups.push(group);
    }
    group.activities.push({ _id: String(row.id), name: row.name, comment: row.comment, date, account: account.id });
  }
  return groups;
}

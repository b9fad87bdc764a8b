import { z } from 'zod';

/** GET /v1/activities?accountId= (the account's id, number or user name). */
export const activitiesQuery = z.object({ accountId: z.string({ error: 'accountId is required' }).trim().min(1, 'accountId is required') });
export type ActivitiesQuery = z.infer<typeof activitiesQuery>;

export const activity = z.object({
  _id: z.string(),
  name: z.string(),
  comment: z.string().nullable(),
  date: z.string().describe('ISO 8601 time'),
  account: z.string().describe('The account id'),
});
export type Activity = z.infer<typeof activity>;

/** Activities come grouped by UTC day (`_id` is YYYY-MM-DD), newest first. */
export const activityGroup = z.object({ _id: z.string().describe('The UTC calendar day, YYYY-MM-DD'), activities: z.array(activity) });
export type ActivityGroup = z.infer<typeof activityGroup>;
export const activityGroupList = z.array(activityGroup);

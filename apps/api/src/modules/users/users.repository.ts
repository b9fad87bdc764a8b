import type { AccountSummary } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserById(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The accounts a user holds, oldest first (the first is the default after login). */
export async function listUserAccounts(db: Db, userId: string): Promise<AccountSummary[]> {
  const rows = await db
    .selectFrom('accountUsers')
    .innerJoin('accounts', 'accounts.id', 'accountUsers.accountId')
    .select([
      'accounts.id',
      'accounts.accountNumber',
      'accounts.accountType',
      'accounts.accountHolderName',
      'accounts.businessName',
      'accounts.userName',
      'accounts.accountEmail',
    ])
    .where('accountUsers.userId', '=', userId)
    .orderBy('accountUsers.createdAt')
    .orderBy('accounts.accountNumber')
    .execute();
  return rows.map(({ id, ...rest }) => ({ _id: id, ...rest }));
}

/** Whether this user may use the operator routes. */
export async function isOperator(db: Db, userId: string): Promise<boolean> {
  const user = await db.selectFrom('users').select('isOperator').where('id', '=', userId).executeTakeFirst();
  return user?.isOperator === true;
}

/** Users by id, for the notices that go to a person's sign-in address (modules/notifications). */
export function usersForNotice(db: Db, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'email', 'firstName', 'lastName']).where('id', 'in', userIds).execute();
}

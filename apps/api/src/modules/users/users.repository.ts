import type { AccountSummary } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import type { Insertable } from 'kysely';
import type { Trx } from '../../db/transaction.ts';
import type { UsersTable } from '../../db/schema.ts';

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

/** The user's row taken FOR UPDATE in `trx` (an operator's fundings take turns on it); throws when there is none. */
export function lockUserRow(trx: Trx, userId: string) {
  return trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

/** The user with this (already lower-cased) e-mail, and whether they are an operator. */
export function findOperatorFlagByEmail(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'isOperator']).where('email', '=', email).executeTakeFirst();
}

export async function markOperator(trx: Trx, userId: string): Promise<void> {
  await trx.updateTable('users').set({ isOperator: true, updatedAt: new Date() }).where('id', '=', userId).execute();
}

/** Inserts a user; answers the new id. */
export async function insertUser(trx: Trx, row: Insertable<UsersTable>): Promise<string> {
  const user = await trx.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
  return user.id;
}

/** Sets the user's password hash; answers who they are, for the notice. */
export function setPasswordHash(trx: Trx, userId: string, passwordHash: string, now: Date) {
  return trx.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).returning(['id', 'email', 'firstName']).executeTakeFirstOrThrow();
}

/** The user's name and e-mail, as an invoice shows who issued it; throws when there is none. */
export function issuerOf(db: Db, userId: string) {
  return db.selectFrom('users').select(['firstName', 'lastName', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
}

/** The user's first and last name (none for an unknown id). */
export function userNameOf(db: Db, userId: string) {
  return db.selectFrom('users').select(['firstName', 'lastName']).where('id', '=', userId).executeTakeFirst();
}

/** Whether the user has verified their e-mail and holds an account (the recipient search's gate). */
export function searchGateOf(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select((eb) => ['isEmailVerified', eb.exists(eb.selectFrom('accountUsers').select('accountId').where('accountUsers.userId', '=', userId)).as('hasAccount')])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Whether any user other than an operator exists: the demo seeder runs only when none does (an operator made with `npm run operator:create` before the first start still gets the demo data). */
export async function hasNonOperatorUsers(db: Db | Trx): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('isOperator', '=', false).limit(1).executeTakeFirst();
  return row !== undefined;
}

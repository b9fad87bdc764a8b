import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Trx } from '../db/transaction.ts';

import { refuse } from './refusals.ts';

/*
 * The one ownership predicate: an account belongs to a user when account_users links them.
 * Every route that names one of the caller's accounts, or a row of one (a store, a payment, a
 * payment link), goes through this file: heldBy inside a query, holdsAccount for a row already
 * read, findOwnedAccount for an account named by the caller, so the rule is written once.
 */

/** Who is calling: the user id the route guard took from the token. */
export interface Caller {
  userId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The columns that name the account a row belongs to, for heldBy. */
export type AccountIdColumn = 'accounts.id' | 'stores.accountId' | 'paymentRequests.accountId';

/**
 * `EXISTS (account_users linking the row's account to this user)`, for a query over the table
 * of `accountId` — e.g. `.where(heldBy(userId, 'stores.accountId'))`.
 */
export function heldBy(userId: string, accountId: AccountIdColumn) {
  return sql<SqlBool>`exists (select 1 from account_users where account_users.account_id = ${sql.ref(accountId)} and account_users.user_id = ${userId})`;
}

/** `EXISTS (account_users of accounts.id for this user)`, for queries over `accounts`. */
export function ownedBy(caller: Caller) {
  return heldBy(caller.userId, 'accounts.id');
}

/** Whether the user holds the account (for a row already read: a payment, a refund's payment). */
export async function holdsAccount(db: Db | Trx, userId: string, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('accountUsers').select('userId').where('accountId', '=', accountId).where('userId', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** The ids of every account the user holds. */
export async function heldAccountIds(db: Db | Trx, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('accountUsers').select('accountId').where('userId', '=', userId).execute();
  return rows.map((row) => row.accountId);
}

/**
 * The query behind findOwnedAccount, for callers that make it part of a larger statement
 * (one round trip): select what you need from it, e.g. `.clearSelect().select('accounts.id')`.
 */
export function ownedAccountQuery(db: Db | Trx, caller: Caller, key: string) {
  return db
    .selectFrom('accounts')
    .selectAll('accounts')
    .select(sql<string>`to_char(accounts.date_of_birth, 'YYYY-MM-DD')`.as('dateOfBirthText'))
    .where(ownedBy(caller))
    .where((eb) => {
      // User names start with a letter and account numbers are all digits, so a key can name one kind only.
      if (isUuid(key)) return eb('accounts.id', '=', key);
      if (/^\d+$/.test(key)) return eb('accounts.accountNumber', '=', key);
      // User names cannot hold '@'; the spec names an account by its e-mail in the gateway's lists.
      if (key.includes('@')) return eb(eb.fn('lower', ['accounts.accountEmail']), '=', key.trim().toLowerCase());
      return eb(eb.fn('lower', ['accounts.userName']), '=', key.toLowerCase());
    });
}

/**
 * One of the caller's accounts, named by its id, its account number, its e-mail or its user
 * name (e-mail and user name case-insensitive). Anyone else's account, or an unknown key, is undefined: the caller
 * cannot tell the two apart (routes answer 404 for both).
 */
export function findOwnedAccount(db: Db | Trx, caller: Caller, key: string) {
  return ownedAccountQuery(db, caller, key).executeTakeFirst();
}
export type OwnedAccount = NonNullable<Awaited<ReturnType<typeof findOwnedAccount>>>;

/**
 * Separation of duties: an operator never acts on an account their own user holds (nor on
 * its stores, withdrawals or identity review). Operators cannot open accounts and a user who
 * holds one cannot be made an operator, so this is the backstop for rows that predate those
 * rules. 403 with a readable error.
 */
export async function assertNotOwnAccount(db: Db | Trx, operatorId: string, accountId: string): Promise<void> {
  if (await holdsAccount(db, operatorId, accountId)) throw refuse('own_record');
}

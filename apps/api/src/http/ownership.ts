import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Trx } from '../db/transaction.ts';
import type { Database } from '../db/schema.ts';
import { operatorMessages } from '@kestrel/shared';
import { forbidden } from './errors.ts';

/*
 * The one ownership predicate: an account belongs to a user when account_users links them.
 * Every route that names one of the caller's accounts goes through findOwnedAccount (or,
 * inside a larger query, ownedBy), so the rule is written once.
 */

/** Who is calling: the user id the route guard took from the token. */
export interface Caller {
  userId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `EXISTS (account_users of accounts.id for this user)`, for queries over `accounts`. */
export function ownedBy(caller: Caller) {
  return (eb: ExpressionBuilder<Database, 'accounts'>) =>
    eb.exists(
      eb
        .selectFrom('accountUsers')
        .select('accountUsers.accountId')
        .whereRef('accountUsers.accountId', '=', 'accounts.id')
        .where('accountUsers.userId', '=', caller.userId),
    );
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
  const own = await db.selectFrom('accountUsers').select('accountId').where('accountId', '=', accountId).where('userId', '=', operatorId).executeTakeFirst();
  if (own) throw forbidden(operatorMessages.ownRecord, 'own_record');
}

import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { AccountsTable } from '../../db/schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export type NewAccountRow = Insertable<AccountsTable>;

export async function insertAccount(trx: Trx, row: NewAccountRow, ownerUserId: string) {
  const account = await trx
    .insertInto('accounts')
    .values(row)
    .returning(['id', 'accountNumber', 'accountEmail', 'userName', 'createdAt'])
    .executeTakeFirstOrThrow();
  await trx.insertInto('accountUsers').values({ accountId: account.id, userId: ownerUserId, role: 'owner' }).execute();
  return account;
}

/**
 * One of the caller's accounts, named by its id, its account number or its user name
 * (case-insensitive). Anyone else's account, or an unknown key, is undefined: the caller
 * cannot tell the two apart.
 */
export function findOwnedAccount(db: Db | Trx, userId: string, key: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('accountUsers', 'accountUsers.accountId', 'accounts.id')
    .selectAll('accounts')
    .select(sql<string>`to_char(accounts.date_of_birth, 'YYYY-MM-DD')`.as('dateOfBirthText'))
    .where('accountUsers.userId', '=', userId)
    .where((eb) => {
      // User names start with a letter and account numbers are all digits, so a key can name one kind only.
      if (isUuid(key)) return eb('accounts.id', '=', key);
      if (/^\d+$/.test(key)) return eb('accounts.accountNumber', '=', key);
      return eb(eb.fn('lower', ['accounts.userName']), '=', key.toLowerCase());
    })
    .executeTakeFirst();
}
export type OwnedAccount = NonNullable<Awaited<ReturnType<typeof findOwnedAccount>>>;

export function listIdentityDocuments(db: Db | Trx, accountId: string) {
  return db
    .selectFrom('identityDocuments')
    .select(['id', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export function insertIdentityDocuments(trx: Trx, rows: { accountId: string; storedName: string; mimeType: string; sizeBytes: number }[]) {
  return trx.insertInto('identityDocuments').values(rows).returning(['id', 'createdAt']).execute();
}

/**
 * An identity document of an account, if the caller owns the account or is an operator.
 * Ids that are not UUIDs are unknown (and never reach the uuid columns).
 */
export function findVisibleIdentityDocument(db: Db, userId: string, accountId: string, imageId: string) {
  if (!isUuid(accountId) || !isUuid(imageId)) return Promise.resolve(undefined);
  return db
    .selectFrom('identityDocuments')
    .select(['identityDocuments.storedName', 'identityDocuments.mimeType', 'identityDocuments.sizeBytes'])
    .where('identityDocuments.id', '=', imageId)
    .where('identityDocuments.accountId', '=', accountId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('accountUsers')
            .select('accountUsers.userId')
            .whereRef('accountUsers.accountId', '=', 'identityDocuments.accountId')
            .where('accountUsers.userId', '=', userId),
        ),
        eb.exists(eb.selectFrom('users').select('users.id').where('users.id', '=', userId).where('users.isOperator', '=', true)),
      ]),
    )
    .executeTakeFirst();
}

/** Ledger transactions with at least one posting on any of the account's ledger accounts. */
export async function countAccountTransactions(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ledgerPostings')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .select((eb) => eb.fn.count<number>('ledgerPostings.ledgerTransactionId').distinct().as('count'))
    .where('ledgerAccounts.accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

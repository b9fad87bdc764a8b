import type { Expression, Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { AccountsTable } from '../../db/schema.ts';
import { isUuid, ownedBy } from '../../http/ownership.ts';

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
    .innerJoin('accounts', 'accounts.id', 'identityDocuments.accountId')
    .where('identityDocuments.id', '=', imageId)
    .where('identityDocuments.accountId', '=', accountId)
    .where((eb) =>
      eb.or([
        ownedBy({ userId }),
        // Operators review identity documents (the operator routes); the image link is the same.
        eb.exists(eb.selectFrom('users').select('users.id').where('users.id', '=', userId).where('users.isOperator', '=', true)),
      ]),
    )
    .executeTakeFirst();
}

/** Ledger transactions with at least one posting on any of the account's ledger accounts. */
/** The ledger transactions touching an account, counted. `accountId` may be a column of an outer query. */
export function countAccountTransactionsQuery(db: Db, accountId: string | Expression<string>) {
  return db
    .selectFrom('ledgerPostings')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .select((eb) => eb.fn.count<number>('ledgerPostings.ledgerTransactionId').distinct().as('count'))
    .where('ledgerAccounts.accountId', '=', accountId);
}

export async function countAccountTransactions(db: Db, accountId: string): Promise<number> {
  const row = await countAccountTransactionsQuery(db, accountId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Where an account's notices go (modules/notifications): its e-mail or its phone, by its
 * notification preference, and the name a notice greets (the business name of a business).
 */
export function accountContacts(db: Db | Trx, accountIds: readonly string[]) {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('accounts')
    .select(['id', 'accountNumber', 'accountType', 'accountHolderName', 'businessName', 'accountEmail', 'accountPhone', 'notificationPreference'])
    .where('id', 'in', [...new Set(accountIds)])
    .execute();
}
export type AccountContactRow = Awaited<ReturnType<typeof accountContacts>>[number];

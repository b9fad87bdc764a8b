import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

const participantColumns = ['accounts.id', 'accounts.accountNumber', 'accounts.accountType', 'accounts.accountHolderName', 'accounts.businessName', 'accounts.userName'] as const;

/** The caller's account with this user name (case-insensitive), or undefined. */
export function findOwnedAccountByUserName(db: Db | Trx, userId: string, userName: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('accountUsers', 'accountUsers.accountId', 'accounts.id')
    .select(participantColumns)
    .where('accountUsers.userId', '=', userId)
    .where((eb) => eb(eb.fn('lower', ['accounts.userName']), '=', userName.toLowerCase()))
    .executeTakeFirst();
}

/** The caller's account with this account number, or undefined. */
export function findOwnedAccountByNumber(db: Db | Trx, userId: string, accountNumber: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('accountUsers', 'accountUsers.accountId', 'accounts.id')
    .select(participantColumns)
    .where('accountUsers.userId', '=', userId)
    .where('accounts.accountNumber', '=', accountNumber)
    .executeTakeFirst();
}

export function findAccountByUserName(db: Db | Trx, userName: string) {
  return db
    .selectFrom('accounts')
    .select(participantColumns)
    .where((eb) => eb(eb.fn('lower', ['accounts.userName']), '=', userName.toLowerCase()))
    .executeTakeFirst();
}

/** The latest distinct accounts this account has sent money to, newest first. */
export async function recentRecipients(db: Db, fromAccountId: string, limit: number) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom('transfers')
        .select(['toAccountId'])
        .select((eb) => eb.fn.max('createdAt').as('lastSentAt'))
        .where('fromAccountId', '=', fromAccountId)
        .groupBy('toAccountId')
        .as('recent'),
    )
    .innerJoin('accounts', 'accounts.id', 'recent.toAccountId')
    .select(participantColumns)
    .select('recent.lastSentAt')
    .orderBy('recent.lastSentAt', 'desc')
    .limit(limit)
    .execute();
}

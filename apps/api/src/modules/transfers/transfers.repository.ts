import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

const participantColumns = ['accounts.id', 'accounts.accountNumber', 'accounts.accountType', 'accounts.accountHolderName', 'accounts.businessName', 'accounts.userName'] as const;

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

/**
 * Both parties of a transfer in one query: the sender only when it is one of the caller's
 * accounts (with its TPIN state, for the TPIN check), and the recipient, whoever owns it.
 * User names are matched case-insensitively.
 */
export async function findTransferParties(db: Db | Trx, userId: string, senderUserName: string, recipientUserName: string) {
  const senderKey = senderUserName.toLowerCase();
  const recipientKey = recipientUserName.toLowerCase();
  const rows = await db
    .selectFrom('accounts')
    .select(participantColumns)
    .select(['accounts.tpinHash', 'accounts.tpinFailedAttempts', 'accounts.tpinLockedUntil'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('accountUsers').select('accountUsers.accountId').whereRef('accountUsers.accountId', '=', 'accounts.id').where('accountUsers.userId', '=', userId))
        .as('owned'),
    )
    .where((eb) => eb(eb.fn('lower', ['accounts.userName']), 'in', [senderKey, recipientKey]))
    .execute();
  return {
    sender: rows.find((row) => row.owned && row.userName.toLowerCase() === senderKey),
    recipient: rows.find((row) => row.userName.toLowerCase() === recipientKey),
  };
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

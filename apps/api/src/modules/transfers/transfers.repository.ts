import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { ownedBy } from '../../http/ownership.ts';

const participantColumns = ['accounts.id', 'accounts.accountNumber', 'accounts.accountType', 'accounts.accountHolderName', 'accounts.businessName', 'accounts.userName'] as const;

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
    .select(['accounts.tpinHash', 'accounts.tpinFailedAttempts', 'accounts.tpinLockedUntil', 'accounts.moneyMovementLocked'])
    .select(ownedBy({ userId }).as('owned'))
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

/** Transfers by their ledger transaction ids, for the "you sent" / "you received" notices. */
export function transfersForNotice(db: Db | Trx, ledgerTransactionIds: readonly number[]) {
  if (ledgerTransactionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('transfers')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'transfers.ledgerTransactionId')
    .select(['transfers.ledgerTransactionId', 'ledgerTransactions.transactionId', 'transfers.fromAccountId', 'transfers.toAccountId', 'transfers.currency', 'transfers.amountCents', 'transfers.createdAt'])
    .where('transfers.ledgerTransactionId', 'in', ledgerTransactionIds)
    .execute();
}

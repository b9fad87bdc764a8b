import { asCents, asCurrency, centsToMajor, messages, TRANSACTION_LIST_LIMIT, type Transaction, type TransactionGroup } from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { findOwnedAccount } from '../../http/ownership.ts';

export { TRANSACTION_LIST_LIMIT };

/**
 * The spec's grouped transaction list for one of the caller's accounts: the latest
 * transactions that touch it, newest first, grouped by day, each listing the wallet accounts
 * involved and whether each was debited or credited.
 */
export async function listAccountTransactions(ctx: AppContext, callerId: string, accountNumber: string, limit = TRANSACTION_LIST_LIMIT): Promise<TransactionGroup[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');

  const rows = await sql<{
    id: number;
    transactionId: string;
    transactionFor: string;
    amountCents: number;
    feeCents: number;
    currency: string;
    createdAt: Date;
    parties: { accountNumber: string; amountCents: number }[];
  }>`
    WITH mine AS (
      SELECT DISTINCT p.ledger_transaction_id AS id
      FROM ledger_postings p
      JOIN ledger_accounts la ON la.id = p.ledger_account_id
      WHERE la.account_id = ${account.id}
      ORDER BY p.ledger_transaction_id DESC
      LIMIT ${limit}
    )
    SELECT t.id, t.transaction_id AS "transactionId", t.transaction_for AS "transactionFor",
           t.amount_cents AS "amountCents", t.fee_cents AS "feeCents", t.currency, t.created_at AS "createdAt",
           COALESCE(json_agg(json_build_object('accountNumber', a.account_number, 'amountCents', p.amount_cents) ORDER BY p.id)
             FILTER (WHERE a.id IS NOT NULL), '[]') AS parties
    FROM mine
    JOIN ledger_transactions t ON t.id = mine.id
    JOIN ledger_postings p ON p.ledger_transaction_id = t.id
    JOIN ledger_accounts la ON la.id = p.ledger_account_id
    LEFT JOIN accounts a ON a.id = la.account_id
    GROUP BY t.id
    ORDER BY t.id DESC`.execute(ctx.db);

  const groups = new Map<string, Transaction[]>();
  for (const row of rows.rows) {
    const at = new Date(row.createdAt);
    const day = at.toISOString().slice(0, 10);
    const view: Transaction = {
      _id: String(row.id),
      transactionId: row.transactionId,
      transactionFor: row.transactionFor,
      amount: centsToMajor(asCents(row.amountCents)),
      currency: asCurrency(row.currency),
      fee: { amount: centsToMajor(asCents(row.feeCents)), currency: asCurrency(row.currency) },
      transactionAt: at.toISOString(),
      accounts: row.parties.map((party) => ({
        accountNumber: party.accountNumber,
        transactionType: party.amountCents < 0 ? 'debit' : 'credit',
      })),
    };
    const list = groups.get(day) ?? [];
    list.push(view);
    groups.set(day, list);
  }
  return [...groups].map(([day, transactions]) => ({ _id: day, transactions }));
}

import { asCents, asCurrency, centsToMajor, TRANSACTION_LIST_LIMIT, type Transaction, type TransactionGroup } from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { prepared } from '../../db/database.ts';
import { refuse } from '../../http/refusals.ts';
import { ownedAccountQuery } from '../../http/ownership.ts';

export { TRANSACTION_LIST_LIMIT };

/**
 * The spec's grouped transaction list for one of the caller's accounts: the latest
 * transactions that touch it, newest first, grouped by day, each listing the wallet accounts
 * involved and whether each was debited or credited. Paged by `cursor` (the ledger
 * transaction id of the last one already shown). One query: the ownership check is its
 * first part, and an account that is not the caller's answers no row at all (404), while
 * an owned account without transactions answers one row without a transaction.
 */
export async function listAccountTransactions(
  ctx: AppContext,
  callerId: string,
  accountNumber: string,
  page: { limit?: number | undefined; cursor?: number | undefined } = {},
): Promise<TransactionGroup[]> {
  const limit = page.limit ?? TRANSACTION_LIST_LIMIT;
  const owned = ownedAccountQuery(ctx.db, { userId: callerId }, accountNumber).clearSelect().select('accounts.id');
  const query = sql<{
    id: number | null;
    transactionId: string;
    transactionFor: string;
    amountCents: number;
    feeCents: number;
    currency: string;
    createdAt: Date;
    parties: { accountNumber: string; amountCents: number }[];
  }>`
    WITH owned AS (${owned}),
    mine AS (
      SELECT DISTINCT p.ledger_transaction_id AS id
      FROM owned
      JOIN ledger_accounts la ON la.account_id = owned.id
      JOIN ledger_postings p ON p.ledger_account_id = la.id
      WHERE ${page.cursor ?? null}::bigint IS NULL OR p.ledger_transaction_id < ${page.cursor ?? null}::bigint
      ORDER BY p.ledger_transaction_id DESC
      LIMIT ${limit}
    ),
    listed AS (
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
    )
    SELECT listed.* FROM owned LEFT JOIN listed ON true
    ORDER BY listed.id DESC`;
  // Prepared: planning this query cost PostgreSQL about as much as running it, on every page.
  const result = await ctx.db.executeQuery(prepared('transaction_list', query.compile(ctx.db)));
  if (result.rows.length === 0) throw refuse('account_not_found');

  const groups = new Map<string, Transaction[]>();
  for (const row of result.rows) {
    if (row.id === null) continue;
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

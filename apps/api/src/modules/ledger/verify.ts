import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface LedgerProblem {
  kind: 'unbalanced_transaction' | 'balance_mismatch' | 'negative_balance' | 'currency_mismatch';
  detail: string;
}

export interface LedgerReport {
  transactions: number;
  postings: number;
  walletAccounts: number;
  /** Sum of every posting per currency; zero when the books balance. */
  totalsByCurrency: Record<string, number>;
  problems: LedgerProblem[];
}

/**
 * Recomputes the books from the postings: every transaction sums to zero, every posting's
 * currency is its transaction's, every cached wallet balance equals the sum of its postings
 * and none is negative.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const problems: LedgerProblem[] = [];

  const unbalanced = await sql<{ id: number; total: number }>`
    SELECT t.id, SUM(p.amount_cents)::bigint AS total
    FROM ledger_transactions t JOIN ledger_postings p ON p.ledger_transaction_id = t.id
    GROUP BY t.id HAVING SUM(p.amount_cents) <> 0`.execute(db);
  for (const row of unbalanced.rows) problems.push({ kind: 'unbalanced_transaction', detail: `transaction ${row.id} sums to ${row.total}` });

  const mixed = await sql<{ id: number }>`
    SELECT DISTINCT t.id FROM ledger_transactions t
    JOIN ledger_postings p ON p.ledger_transaction_id = t.id
    JOIN ledger_accounts a ON a.id = p.ledger_account_id
    WHERE a.currency <> t.currency`.execute(db);
  for (const row of mixed.rows) problems.push({ kind: 'currency_mismatch', detail: `transaction ${row.id} posts to another currency` });

  const mismatched = await sql<{ id: number; cached: number; computed: number }>`
    SELECT a.id, a.balance_cents AS cached, COALESCE(SUM(p.amount_cents), 0)::bigint AS computed
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
    WHERE a.account_id IS NOT NULL
    GROUP BY a.id, a.balance_cents
    HAVING a.balance_cents <> COALESCE(SUM(p.amount_cents), 0) OR a.balance_cents < 0`.execute(db);
  for (const row of mismatched.rows) {
    if (row.cached < 0) problems.push({ kind: 'negative_balance', detail: `ledger account ${row.id} is ${row.cached}` });
    if (row.cached !== row.computed) {
      problems.push({ kind: 'balance_mismatch', detail: `ledger account ${row.id}: cached ${row.cached}, postings ${row.computed}` });
    }
  }

  const counts = await sql<{ transactions: number; postings: number; wallets: number }>`
    SELECT (SELECT COUNT(*) FROM ledger_transactions) AS transactions,
           (SELECT COUNT(*) FROM ledger_postings) AS postings,
           (SELECT COUNT(*) FROM ledger_accounts WHERE account_id IS NOT NULL) AS wallets`.execute(db);
  const totals = await sql<{ currency: string; total: number }>`
    SELECT a.currency, COALESCE(SUM(p.amount_cents), 0)::bigint AS total
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
    GROUP BY a.currency`.execute(db);
  const totalsByCurrency = Object.fromEntries(totals.rows.map((row) => [row.currency, Number(row.total)]));
  for (const [currency, total] of Object.entries(totalsByCurrency)) {
    if (total !== 0) problems.push({ kind: 'unbalanced_transaction', detail: `${currency} postings sum to ${total}` });
  }

  const count = counts.rows[0];
  return {
    transactions: Number(count?.transactions ?? 0),
    postings: Number(count?.postings ?? 0),
    walletAccounts: Number(count?.wallets ?? 0),
    totalsByCurrency,
    problems,
  };
}

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
 * currency is its transaction's, every wallet balance (its row's folded part plus its pending
 * credits) equals the sum of its postings, and no folded part is negative.
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

  // A wallet's balance is its row's folded part plus its pending credits (the wallet_balances
  // view, see db/functions/ledger_credit.sql); the folded part alone must never be negative
  // either, since debits check it.
  const mismatched = await sql<{ id: number; cached: number; folded: number; computed: number }>`
    SELECT w.ledger_account_id AS id, w.balance_cents AS cached, a.balance_cents AS folded, COALESCE(p.total, 0)::bigint AS computed
    FROM wallet_balances w
    JOIN ledger_accounts a ON a.id = w.ledger_account_id
    LEFT JOIN (SELECT ledger_account_id, SUM(amount_cents) AS total FROM ledger_postings GROUP BY ledger_account_id) p ON p.ledger_account_id = w.ledger_account_id
    WHERE w.balance_cents <> COALESCE(p.total, 0) OR a.balance_cents < 0`.execute(db);
  for (const row of mismatched.rows) {
    if (row.folded < 0) problems.push({ kind: 'negative_balance', detail: `ledger account ${row.id} is ${row.folded}` });
    if (row.cached !== row.computed) {
      problems.push({ kind: 'balance_mismatch', detail: `ledger account ${row.id}: cached ${row.cached}, postings ${row.computed}` });
    }
  }

  // Pending credits belong to wallets only (a system account's balance is its postings).
  const strayPending = await sql<{ id: number }>`
    SELECT DISTINCT pc.ledger_account_id AS id FROM ledger_pending_credits pc
    JOIN ledger_accounts a ON a.id = pc.ledger_account_id WHERE a.account_id IS NULL`.execute(db);
  for (const row of strayPending.rows) problems.push({ kind: 'balance_mismatch', detail: `system ledger account ${row.id} has pending credits` });

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

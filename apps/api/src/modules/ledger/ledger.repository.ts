import type { ChartPeriod } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

export interface WalletDayRow {
  currency: string;
  day: string;
  closingCents: string;
  inCents: string;
  outCents: string;
}

/**
 * An account's wallets day by day over a chart's period (UTC days), from the postings of the
 * period alone: a day's closing balance is the balance the wallet had at the end of that day —
 * its balance now (wallet_balances, pending credits included, which the ledger keeps equal to
 * the sum of all its postings: ledger:verify) less every posting made after that day — money in
 * the day's positive postings, money out its negative ones. The postings are read by the
 * (wallet, time) index from the period's start on, never the wallet's whole history. One row per
 * wallet and day, oldest first; all sums in integer cents.
 */
export async function walletDays(db: Db, accountId: string, period: ChartPeriod): Promise<WalletDayRow[]> {
  const { rows } = await sql<WalletDayRow>`
    WITH days AS (
      SELECT day::date AS day FROM generate_series(${period.firstDay}::date, ${period.lastDay}::date, interval '1 day') AS day
    ), wallets AS (
      SELECT ledger_account_id AS id, currency, balance_cents FROM wallet_balances WHERE account_id = ${accountId}
    ), since AS (
      -- From the period's start on, including any after its end (a period drawn for a past day).
      SELECT p.ledger_account_id AS id, p.created_at, p.amount_cents
      FROM ledger_postings p JOIN wallets w ON w.id = p.ledger_account_id
      WHERE p.created_at >= ${period.start}
    ), opening AS (
      SELECT w.id, w.balance_cents - COALESCE(SUM(s.amount_cents), 0) AS cents
      FROM wallets w LEFT JOIN since s ON s.id = w.id
      GROUP BY w.id, w.balance_cents
    ), moved AS (
      SELECT id, (created_at AT TIME ZONE 'UTC')::date AS day,
             SUM(amount_cents) FILTER (WHERE amount_cents > 0) AS in_cents,
             -SUM(amount_cents) FILTER (WHERE amount_cents < 0) AS out_cents,
             SUM(amount_cents) AS net_cents
      FROM since
      WHERE created_at < ${period.end}
      GROUP BY 1, 2
    )
    SELECT w.currency, to_char(d.day, 'YYYY-MM-DD') AS day,
           (o.cents + SUM(COALESCE(m.net_cents, 0)) OVER (PARTITION BY w.id ORDER BY d.day))::text AS "closingCents",
           COALESCE(m.in_cents, 0)::text AS "inCents", COALESCE(m.out_cents, 0)::text AS "outCents"
    FROM wallets w JOIN opening o ON o.id = w.id CROSS JOIN days d
      LEFT JOIN moved m ON m.id = w.id AND m.day = d.day
    ORDER BY w.currency, d.day`.execute(db);
  return rows;
}

/** The account's wallet balances, by currency. */
export function walletBalancesOf(db: Db, accountId: string) {
  return db.selectFrom('walletBalances').select(['currency', 'balanceCents']).where('accountId', '=', accountId).orderBy('currency').execute();
}

/** The account's wallet balance in one currency (none before its first movement in it). */
export function walletBalanceIn(db: Db | Trx, accountId: string, currency: string) {
  return db.selectFrom('walletBalances').select('balanceCents').where('accountId', '=', accountId).where('currency', '=', currency).executeTakeFirst();
}

/** The account's latest `limit` postings, newest first, with their transactions. */
export function recentPostingsOf(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('ledgerPostings')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'ledgerPostings.ledgerTransactionId')
    .select(['ledgerTransactions.transactionId', 'ledgerTransactions.kind', 'ledgerTransactions.transactionFor', 'ledgerAccounts.currency', 'ledgerPostings.amountCents', 'ledgerTransactions.createdAt'])
    .where('ledgerAccounts.accountId', '=', accountId)
    .orderBy('ledgerPostings.id', 'desc')
    .limit(limit)
    .execute();
}

/** Wallet balances in `currency` of the accounts with these numbers, by account number. */
export function walletBalancesByAccountNumber(db: Db, currency: string, accountNumbers: string[]) {
  return db
    .selectFrom('walletBalances')
    .innerJoin('accounts', 'accounts.id', 'walletBalances.accountId')
    .select(['accounts.accountNumber', 'walletBalances.balanceCents'])
    .where('walletBalances.currency', '=', currency)
    .where('accounts.accountNumber', 'in', accountNumbers)
    .execute();
}

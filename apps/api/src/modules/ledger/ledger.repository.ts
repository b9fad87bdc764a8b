import type { ChartPeriod } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface WalletDayRow {
  currency: string;
  day: string;
  closingCents: string;
  inCents: string;
  outCents: string;
}

/**
 * An account's wallets day by day over a chart's period (UTC days), from the postings alone:
 * a day's closing balance is every posting of the wallet up to the end of that day (the
 * postings are append-only and every balance change has one, so this is the balance the
 * wallet had then, pending credits included), money in the day's positive postings, money
 * out its negative ones. One row per wallet and day, oldest first; all sums in integer cents.
 */
export async function walletDays(db: Db, accountId: string, period: ChartPeriod): Promise<WalletDayRow[]> {
  const { rows } = await sql<WalletDayRow>`
    WITH days AS (
      SELECT day::date AS day FROM generate_series(${period.firstDay}::date, ${period.lastDay}::date, interval '1 day') AS day
    ), wallets AS (
      SELECT id, currency FROM ledger_accounts WHERE account_id = ${accountId}
    ), opening AS (
      SELECT w.id, COALESCE(SUM(p.amount_cents), 0) AS cents
      FROM wallets w LEFT JOIN ledger_postings p ON p.ledger_account_id = w.id AND p.created_at < ${period.start}
      GROUP BY w.id
    ), moved AS (
      SELECT p.ledger_account_id AS id, (p.created_at AT TIME ZONE 'UTC')::date AS day,
             SUM(p.amount_cents) FILTER (WHERE p.amount_cents > 0) AS in_cents,
             -SUM(p.amount_cents) FILTER (WHERE p.amount_cents < 0) AS out_cents,
             SUM(p.amount_cents) AS net_cents
      FROM ledger_postings p JOIN wallets w ON w.id = p.ledger_account_id
      WHERE p.created_at >= ${period.start} AND p.created_at < ${period.end}
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

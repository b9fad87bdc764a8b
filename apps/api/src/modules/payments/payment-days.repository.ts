import type { ChartPeriod } from '@kestrel/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * Payment events for a chart: rows of (currency, at, paid_cents, paid, failed), one per
 * payment paid in the period (at its paid_at, paid = 1) and one per refused pay attempt kept
 * on a payment (at its error_at, failed = 1). A payment that is created but never tried is no
 * attempt. Other kinds of payment (the links') add their own events with a UNION ALL.
 */
export type PaymentEvents = RawBuilder<unknown>;

/** A gateway store's payment events, or every store's (`storeId` null: the operator's view). */
export function gatewayPaymentEvents(period: ChartPeriod, storeId: string | null): PaymentEvents {
  // Each part is a range scan of its (store, time) or (time) index (the chart indexes' migration);
  // a refused attempt carries its payment's store.
  const paidOfStore = storeId === null ? sql`` : sql`AND p.store_id = ${storeId}`;
  const refusedOfStore = storeId === null ? sql`` : sql`AND pe.store_id = ${storeId}`;
  return sql`
    SELECT p.currency, p.paid_at AS at, p.amount_cents AS paid_cents, 1 AS paid, 0 AS failed
    FROM payments p
    WHERE p.paid_at >= ${period.start} AND p.paid_at < ${period.end} ${paidOfStore}
    UNION ALL
    SELECT p.currency, pe.error_at, 0, 0, 1
    FROM payment_errors pe JOIN payments p ON p.id = pe.payment_id
    WHERE pe.error_at >= ${period.start} AND pe.error_at < ${period.end} ${refusedOfStore}`;
}

export interface PaymentDayRow {
  currency: string;
  day: string;
  paidCount: string;
  paidCents: string;
  failedCount: string;
  totalPaidCount: string;
  totalPaidCents: string;
  totalFailedCount: string;
  /** Paid ÷ (paid + failed) over the period, as text with 4 decimals; null without an attempt. */
  successRate: string | null;
}

/**
 * The events summed per currency and UTC day, every day of the period present (zeros on a
 * quiet day), oldest first, with each currency's period totals and success rate. Only
 * currencies with an event in the period get rows.
 */
export async function paymentDays(db: Db, events: PaymentEvents, period: ChartPeriod): Promise<PaymentDayRow[]> {
  const { rows } = await sql<PaymentDayRow>`
    WITH days AS (
      SELECT day::date AS day FROM generate_series(${period.firstDay}::date, ${period.lastDay}::date, interval '1 day') AS day
    ), events AS (${events}), per_day AS (
      SELECT currency, (at AT TIME ZONE 'UTC')::date AS day, SUM(paid) AS paid, SUM(paid_cents) AS paid_cents, SUM(failed) AS failed
      FROM events GROUP BY 1, 2
    ), totals AS (
      SELECT currency, SUM(paid) AS paid, SUM(paid_cents) AS paid_cents, SUM(failed) AS failed FROM per_day GROUP BY currency
    )
    SELECT t.currency, to_char(d.day, 'YYYY-MM-DD') AS day,
           COALESCE(pd.paid, 0)::text AS "paidCount", COALESCE(pd.paid_cents, 0)::text AS "paidCents", COALESCE(pd.failed, 0)::text AS "failedCount",
           t.paid::text AS "totalPaidCount", t.paid_cents::text AS "totalPaidCents", t.failed::text AS "totalFailedCount",
           round(t.paid::numeric / NULLIF(t.paid + t.failed, 0), 4)::text AS "successRate"
    FROM totals t CROSS JOIN days d LEFT JOIN per_day pd ON pd.currency = t.currency AND pd.day = d.day
    ORDER BY t.currency, d.day`.execute(db);
  return rows;
}

import { asCents, centsToMajor, CHART_DAYS, chartPeriod, type Currency, type PaymentChart, type PaymentSeries } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedStore } from '../stores/stores.service.ts';
import { gatewayPaymentEvents, paymentDays, type PaymentDayRow } from './payment-days.repository.ts';

const major = (cents: string) => centsToMajor(asCents(Number(cents)));

/** The database's day rows as the chart contract's series, one per currency. */
export function paymentChartOf(rows: PaymentDayRow[]): PaymentChart {
  const series = new Map<string, PaymentSeries>();
  for (const row of rows) {
    let entry = series.get(row.currency);
    if (!entry) {
      entry = {
        currency: row.currency as Currency,
        days: [],
        paidCount: Number(row.totalPaidCount),
        paidVolume: major(row.totalPaidCents),
        failedCount: Number(row.totalFailedCount),
        successRate: row.successRate === null ? null : Number(row.successRate),
      };
      series.set(row.currency, entry);
    }
    entry.days.push({ day: row.day, paidCount: Number(row.paidCount), paidVolume: major(row.paidCents), failedCount: Number(row.failedCount) });
  }
  return { days: CHART_DAYS, series: [...series.values()] };
}

/**
 * GET /v1/payment/store/{storeId}/chart: one of the caller's stores, its payments per UTC day
 * over the last CHART_DAYS days. Anyone else's store answers the store routes' 404.
 * `now` is the moment the period ends on (today, UTC); tests move it.
 */
export async function storePaymentChart(ctx: AppContext, userId: string, storeId: string, now = new Date()): Promise<PaymentChart> {
  const store = await findOwnedStore(ctx.db, userId, storeId);
  if (!store) throw refuse('store_not_found');
  const period = chartPeriod(now);
  return paymentChartOf(await paymentDays(ctx.db, gatewayPaymentEvents(period, store.id), period));
}

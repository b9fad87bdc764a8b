import { z } from 'zod';
import { withExample } from '../contract-examples.ts';
import { currencyCode, majorUnits } from './common.ts';

/*
 * The charts of the dashboard, a store's page and the operator console (issue 26): each is the
 * last CHART_DAYS days in UTC, oldest first, today (UTC) last, one entry a day even when
 * nothing happened, computed by the database from the ledger or the payment records. Money in
 * major units like every answer; a series per currency, since a day's sum only adds one currency.
 */

/** How many UTC days a chart covers, today included. */
export const CHART_DAYS = 30;

const chartDay = withExample(z.string().describe('A UTC day, YYYY-MM-DD'), '2026-11-27');

/** One UTC day of an account's wallet in one currency. */
export const balanceDay = z.object({
  day: chartDay,
  closingBalance: majorUnits.describe("The wallet's balance at the end of the day (UTC): every posting up to then"),
  moneyIn: majorUnits.describe('What the postings of the day added to the wallet'),
  moneyOut: majorUnits.describe('What the postings of the day took from the wallet (a positive amount)'),
});
export type BalanceDay = z.infer<typeof balanceDay>;

/** GET /v1/account/{key}/chart: the dashboard's picture of one of the caller's accounts. */
export const accountChart = z.object({
  days: z.number().int().describe('How many UTC days each series holds'),
  series: z.array(z.object({ currency: currencyCode, days: z.array(balanceDay) })).describe("One per currency the account's wallet holds"),
});
export type AccountChart = z.infer<typeof accountChart>;

/**
 * One UTC day of payments in one currency: what was paid that day (by the time it was paid) and
 * the pay attempts refused that day (each kept refusal: a declined card, a wrong TPIN, …).
 */
export const paymentDay = z.object({
  day: chartDay,
  paidCount: z.number().int(),
  paidVolume: majorUnits.describe('The amounts of the payments paid that day'),
  failedCount: z.number().int().describe('Pay attempts refused that day'),
});
export type PaymentDay = z.infer<typeof paymentDay>;

const successRate = z.number().nullable().describe('Paid ÷ attempted (paid + refused attempts) over the period, 0 to 1; null with no attempt');

export const paymentSeries = z.object({
  currency: currencyCode,
  days: z.array(paymentDay),
  paidCount: z.number().int(),
  paidVolume: majorUnits,
  failedCount: z.number().int(),
  successRate,
});
export type PaymentSeries = z.infer<typeof paymentSeries>;

/** GET /v1/payment/store/{storeId}/chart: one of the caller's stores. */
export const paymentChart = z.object({
  days: z.number().int().describe('How many UTC days each series holds'),
  series: z.array(paymentSeries).describe('One per currency with a payment or an attempt in the period'),
});
export type PaymentChart = z.infer<typeof paymentChart>;

/** GET /v1/operator/charts: every store's and every payment link's payments, and the callback queue now. */
export const operatorChart = paymentChart.extend({
  callbackBacklog: z.number().int().describe('Callback deliveries waiting to be sent now (queued, or to be retried)'),
  callbacksFailing: z.number().int().describe('Callback deliveries that gave up, or that wait after a failed attempt'),
});
export type OperatorChart = z.infer<typeof operatorChart>;

/** The UTC days a chart drawn at `now` covers: from `firstDay` 00:00 UTC (`start`) to the end of `lastDay`, today (`end`, exclusive). */
export function chartPeriod(now: Date): { firstDay: string; lastDay: string; start: Date; end: Date } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (CHART_DAYS - 1)));
  const lastDay = new Date(end.getTime() - 86_400_000);
  return { firstDay: start.toISOString().slice(0, 10), lastDay: lastDay.toISOString().slice(0, 10), start, end };
}
export type ChartPeriod = ReturnType<typeof chartPeriod>;

import { asCents, centsToMajor, CHART_DAYS, chartPeriod, type AccountChart, type Currency } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedAccount } from '../../http/ownership.ts';
import { walletDays } from '../ledger/ledger.service.ts';

const major = (cents: string) => centsToMajor(asCents(Number(cents)));

/**
 * GET /v1/account/{key}/chart: the dashboard's picture of one of the caller's accounts — each
 * wallet's closing balance and money in / out for the last CHART_DAYS UTC days, summed by the
 * database from the ledger's postings. Anyone else's account answers the counters' 404.
 * `now` is the moment the period ends on (today, UTC); tests move it.
 */
export async function accountChartOf(ctx: AppContext, callerId: string, key: string, now = new Date()): Promise<AccountChart> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, key);
  if (!account) throw refuse('account_not_found');
  const rows = await walletDays(ctx.db, account.id, chartPeriod(now));
  const series = new Map<string, AccountChart['series'][number]>();
  for (const row of rows) {
    const entry = series.get(row.currency) ?? { currency: row.currency as Currency, days: [] };
    entry.days.push({ day: row.day, closingBalance: major(row.closingCents), moneyIn: major(row.inCents), moneyOut: major(row.outCents) });
    series.set(row.currency, entry);
  }
  return { days: CHART_DAYS, series: [...series.values()] };
}

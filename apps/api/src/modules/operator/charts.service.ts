import { chartPeriod, type OperatorChart } from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { linkPaymentEvents } from '../payment-requests/payment-requests.service.ts';
import { gatewayPaymentEvents, paymentChartOf, paymentDays } from '../payments/payments.service.ts';
import { failingDelivery } from '../callbacks/callbacks.service.ts';

/**
 * GET /v1/operator/charts: every store's and every payment link's payments per UTC day over
 * the last CHART_DAYS days (volume, count, refused attempts, the period's success rate), and
 * the callback queue as it stands: deliveries waiting to be sent (backlog) and failing ones
 * (the overview's count). Behind requireOperator.
 */
export async function operatorChart(ctx: AppContext, now = new Date()): Promise<OperatorChart> {
  const period = chartPeriod(now);
  const events = sql`${gatewayPaymentEvents(period, null)} UNION ALL ${linkPaymentEvents(period)}`;
  const [rows, callbacks] = await Promise.all([
    paymentDays(ctx.db, events, period),
    sql<{ backlog: string; failing: string }>`
      SELECT (SELECT COUNT(*) FROM callback_deliveries WHERE state = 'pending') AS backlog,
             (SELECT COUNT(*) FROM callback_deliveries WHERE ${failingDelivery}) AS failing`.execute(ctx.db),
  ]);
  const counts = callbacks.rows[0]!;
  return { ...paymentChartOf(rows), callbackBacklog: Number(counts.backlog), callbacksFailing: Number(counts.failing) };
}

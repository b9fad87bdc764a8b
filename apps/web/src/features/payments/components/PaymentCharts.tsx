import type { PaymentChart, PaymentSeries } from '@kestrel/shared';
import { ChartFigure } from '../../../components/charts/ChartFigure.tsx';
import { chartColors, formatValue, type ChartSpec } from '../../../components/charts/chart-spec.ts';
import { errorMessage } from '../../../lib/http.ts';

export const NO_PAYMENTS_TEXT = 'No payments in the last 30 days.';

const percent = (rate: number | null) => formatValue(rate, { kind: 'percent' });

/** "2 paid of 4 attempts: 50% succeeded." — the period's success rate in words. */
export function successSentence(series: PaymentSeries): string {
  const attempts = series.paidCount + series.failedCount;
  return `${series.paidCount.toLocaleString('en-US')} paid of ${attempts.toLocaleString('en-US')} ${attempts === 1 ? 'attempt' : 'attempts'}: success rate ${percent(series.successRate)}.`;
}

function volumeSpec(series: PaymentSeries): ChartSpec {
  return {
    days: series.days.map((day) => day.day),
    series: [
      { label: 'Volume paid', values: series.days.map((day) => day.paidVolume), color: chartColors.brand, kind: 'bars', format: { kind: 'money', currency: series.currency } },
      { label: 'Payments paid', values: series.days.map((day) => day.paidCount), color: chartColors.accent, kind: 'line', axis: 'right', format: { kind: 'count' } },
    ],
  };
}

function failureSpec(series: PaymentSeries): ChartSpec {
  return {
    days: series.days.map((day) => day.day),
    series: [
      {
        label: 'Attempts refused',
        values: series.days.map((day) => (day.paidCount + day.failedCount === 0 ? null : day.failedCount / (day.paidCount + day.failedCount))),
        color: chartColors.danger,
        kind: 'line',
        format: { kind: 'percent' },
      },
    ],
  };
}

/**
 * Payments per UTC day over the last 30 days, one currency: volume (bars) and count (line) with
 * the period's success rate in the summary; with `failureRate`, a second chart of the share of
 * attempts refused each day (the operator's view).
 */
function CurrencyPaymentCharts({ series, multiple, failureRate, headingLevel }: { series: PaymentSeries; multiple: boolean; failureRate: boolean; headingLevel: 2 | 3 }) {
  const suffix = multiple ? ` (${series.currency})` : '';
  const volume = formatValue(series.paidVolume, { kind: 'money', currency: series.currency });
  return (
    <>
      <ChartFigure
        title={`Payments per day, last 30 days${suffix}`}
        headingLevel={headingLevel}
        spec={volumeSpec(series)}
        empty={false}
        emptyText={NO_PAYMENTS_TEXT}
        summary={`${volume} in ${series.paidCount.toLocaleString('en-US')} paid ${series.paidCount === 1 ? 'payment' : 'payments'} (UTC days). ${successSentence(series)}`}
      />
      {failureRate ? (
        <ChartFigure
          title={`Failure rate per day${suffix}`}
          headingLevel={headingLevel}
          spec={failureSpec(series)}
          empty={false}
          emptyText={NO_PAYMENTS_TEXT}
          summary={`${series.failedCount.toLocaleString('en-US')} of ${(series.paidCount + series.failedCount).toLocaleString('en-US')} pay attempts refused over the last 30 days: ${percent(series.successRate === null ? null : 1 - series.successRate)}.`}
        />
      ) : null}
    </>
  );
}

export function PaymentCharts({
  chart,
  isPending,
  error,
  failureRate = false,
  headingLevel = 2,
}: {
  chart: PaymentChart | undefined;
  isPending: boolean;
  error: unknown;
  failureRate?: boolean;
  headingLevel?: 2 | 3;
}) {
  const title = 'Payments per day, last 30 days';
  if (error) return <ChartFigure title={title} headingLevel={headingLevel} spec={undefined} empty={false} emptyText="" error={errorMessage(error, 'The chart could not be loaded.')} />;
  if (isPending || !chart) return <ChartFigure title={title} headingLevel={headingLevel} spec={undefined} empty={false} emptyText="" loading />;
  if (chart.series.length === 0) return <ChartFigure title={title} headingLevel={headingLevel} spec={undefined} empty emptyText={NO_PAYMENTS_TEXT} />;
  return (
    <>
      {chart.series.map((series) => (
        <CurrencyPaymentCharts key={series.currency} series={series} multiple={chart.series.length > 1} failureRate={failureRate} headingLevel={headingLevel} />
      ))}
    </>
  );
}

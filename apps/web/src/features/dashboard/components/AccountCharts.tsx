import type { AccountChart } from '@kestrel/shared';
import { ChartFigure } from '../../../components/charts/ChartFigure.tsx';
import { chartColors, formatDay, formatValue, type ChartSpec, type ValueFormat } from '../../../components/charts/chart-spec.ts';
import { errorMessage } from '../../../lib/http.ts';

type Series = AccountChart['series'][number];

const sum = (values: number[]) => values.reduce((total, value) => total + Math.round(value * 100), 0) / 100;

function balanceSpec(series: Series): ChartSpec {
  const format: ValueFormat = { kind: 'money', currency: series.currency };
  return { days: series.days.map((day) => day.day), series: [{ label: 'Balance at the end of the day', values: series.days.map((day) => day.closingBalance), color: chartColors.brand, kind: 'line', format }] };
}

function flowSpec(series: Series): ChartSpec {
  const format: ValueFormat = { kind: 'money', currency: series.currency };
  return {
    days: series.days.map((day) => day.day),
    series: [
      { label: 'Money in', values: series.days.map((day) => day.moneyIn), color: chartColors.success, kind: 'bars', format },
      { label: 'Money out', values: series.days.map((day) => day.moneyOut), color: chartColors.accent, kind: 'bars', format },
    ],
  };
}

/**
 * The dashboard's two charts for one currency of the account: the balance at the end of each
 * of the last 30 days (UTC), and money in / out per day. Rendered below the counters; the
 * drawing code loads on its own after them (ChartFigure).
 */
function CurrencyCharts({ series, multiple }: { series: Series; multiple: boolean }) {
  const money = (value: number) => formatValue(value, { kind: 'money', currency: series.currency });
  const first = series.days[0];
  const last = series.days.at(-1);
  const moneyIn = sum(series.days.map((day) => day.moneyIn));
  const moneyOut = sum(series.days.map((day) => day.moneyOut));
  const quiet = moneyIn === 0 && moneyOut === 0;
  const suffix = multiple ? ` (${series.currency})` : '';
  return (
    <>
      <ChartFigure
        title={`Balance, last 30 days${suffix}`}
        spec={balanceSpec(series)}
        empty={quiet}
        emptyText={`No money moved in the last 30 days: the balance stayed ${money(last?.closingBalance ?? 0)}.`}
        summary={first && last ? `${money(last.closingBalance)} at the end of today, from ${money(first.closingBalance)} at the end of ${formatDay(first.day)} (UTC days).` : undefined}
      />
      <ChartFigure
        title={`Money in and out per day${suffix}`}
        spec={flowSpec(series)}
        empty={quiet}
        emptyText="No money in or out in the last 30 days."
        summary={`${money(moneyIn)} in and ${money(moneyOut)} out over the last 30 days (UTC days).`}
      />
    </>
  );
}

export function AccountCharts({ chart, isPending, error }: { chart: AccountChart | undefined; isPending: boolean; error: unknown }) {
  if (error || isPending || !chart) {
    const failure = error ? errorMessage(error, 'The chart could not be loaded.') : undefined;
    return (
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <ChartFigure title="Balance, last 30 days" spec={undefined} empty={false} emptyText="" loading={!failure} error={failure} />
        <ChartFigure title="Money in and out per day" spec={undefined} empty={false} emptyText="" loading={!failure} error={failure} />
      </div>
    );
  }
  return (
    <div className="mt-6 grid gap-4 lg:grid-cols-2">
      {chart.series.length === 0 ? (
        <ChartFigure title="Balance, last 30 days" spec={undefined} empty emptyText="No money moved in the last 30 days." loading={false} />
      ) : (
        chart.series.map((series) => <CurrencyCharts key={series.currency} series={series} multiple={chart.series.length > 1} />)
      )}
    </div>
  );
}

import { accountChart, type AccountChart } from '@kestrel/shared';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccountCharts } from './AccountCharts.tsx';

const days = Array.from({ length: 30 }, (_, index) => new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10));

function chartWith(moves: Record<number, { in?: number; out?: number }>, opening = 0): AccountChart {
  let balance = opening * 100;
  return accountChart.parse({
    days: 30,
    series: [
      {
        currency: 'USD',
        days: days.map((day, index) => {
          const moneyIn = moves[index]?.in ?? 0;
          const moneyOut = moves[index]?.out ?? 0;
          balance += Math.round(moneyIn * 100) - Math.round(moneyOut * 100);
          return { day, closingBalance: balance / 100, moneyIn, moneyOut };
        }),
      },
    ],
  });
}

describe("the dashboard's charts", () => {
  it('give each chart a heading, a summary sentence and a table of every UTC day for screen readers', () => {
    render(<AccountCharts chart={chartWith({ 27: { in: 100 }, 29: { in: 12.5, out: 25.55 } })} isPending={false} error={null} />);
    const balance = screen.getByRole('region', { name: 'Balance, last 30 days' });
    expect(within(balance).getByText('US$ 86.95 at the end of today, from US$ 0.00 at the end of Oct 29 (UTC days).')).toBeTruthy();
    const table = within(balance).getByRole('table', { name: 'Balance, last 30 days, per day (UTC)' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows.at(-1)!.textContent).toBe('Nov 27US$ 86.95');
    expect(rows[28]!.textContent).toBe('Nov 25US$ 100.00');

    const flow = screen.getByRole('region', { name: 'Money in and out per day' });
    expect(within(flow).getByText('US$ 112.50 in and US$ 25.55 out over the last 30 days (UTC days).')).toBeTruthy();
    const flowRows = within(within(flow).getByRole('table')).getAllByRole('row');
    expect(flowRows[0]!.textContent).toBe('Day (UTC)Money inMoney out');
    expect(flowRows.at(-1)!.textContent).toBe('Nov 27US$ 12.50US$ 25.55');
  });

  it('say so when no money moved, instead of drawing an empty axis', () => {
    render(<AccountCharts chart={chartWith({}, 40)} isPending={false} error={null} />);
    expect(screen.getByText('No money moved in the last 30 days: the balance stayed US$ 40.00.')).toBeTruthy();
    expect(screen.getByText('No money in or out in the last 30 days.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keep their headings while loading, and show why when the chart could not be read', () => {
    const { rerender } = render(<AccountCharts chart={undefined} isPending error={null} />);
    expect(screen.getByRole('region', { name: 'Balance, last 30 days' }).getAttribute('aria-busy')).toBe('true');
    rerender(<AccountCharts chart={undefined} isPending={false} error={new Error('offline')} />);
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });
});

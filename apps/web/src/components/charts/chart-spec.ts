import type { Currency } from '@kestrel/shared';
import { formatApiMoney } from '../../lib/money.ts';

/*
 * What a chart shows, as plain data: the page builds it from the API's answer, the text
 * alternative (summary and table) reads it at once, and the lazy uPlot chunk draws it. Nothing
 * here imports uPlot, so a page pays for the drawing code only when it draws.
 */

export type ValueFormat = { kind: 'money'; currency: Currency } | { kind: 'count' } | { kind: 'percent' };

export interface ChartSeries {
  label: string;
  /** One value a day, null where the value has no meaning (a rate on a day with no attempt). */
  values: (number | null)[];
  /** A CSS colour (the design's palette). */
  color: string;
  kind: 'line' | 'bars';
  /** Which y axis: the left (default) or the right one, for a second unit. */
  axis?: 'left' | 'right';
  format: ValueFormat;
}

export interface ChartSpec {
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: string[];
  series: ChartSeries[];
}

export function formatValue(value: number | null, format: ValueFormat): string {
  if (value === null) return '–';
  if (format.kind === 'money') return formatApiMoney(value, format.currency);
  if (format.kind === 'percent') return `${(value * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
  return value.toLocaleString('en-US');
}

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 27" for a UTC day (the charts' days are UTC days, so they are shown as such). */
export function formatDay(day: string): string {
  return dayLabel.format(new Date(`${day}T00:00:00Z`));
}

/** The design's colours for the charts (index.css), spelled out: a canvas does not read CSS variables. */
export const chartColors = {
  brand: '#1a605b',
  success: '#027a48',
  danger: '#b42318',
  accent: '#c2501a',
  sky: '#0369a1',
} as const;

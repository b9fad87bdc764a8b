import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDay, formatValue, type ChartSeries, type ChartSpec } from './chart-spec.ts';

/*
 * The drawing of a ChartFigure, with uPlot (a canvas chart library of about 20 KB gzipped). This
 * module is only ever imported lazily (ChartFigure), so uPlot is a chunk of its own. The canvas
 * is hidden from screen readers: the figure's table says the same.
 */

const axisFont = '12px system-ui, sans-serif';
const grid = { stroke: '#e2e8f0', width: 1 };

function seriesOptions(series: ChartSeries, barsInGroup: number, barIndex: number): uPlot.Series {
  const bars = series.kind === 'bars';
  // Bars of one day stand side by side: the first left of the day's tick, the second right of it.
  const align = barsInGroup < 2 ? 0 : barIndex === 0 ? -1 : 1;
  return {
    label: series.label,
    scale: series.axis === 'right' ? 'right' : 'left',
    stroke: series.color,
    width: bars ? 0 : 2,
    ...(bars ? { fill: series.color, paths: uPlot.paths.bars!({ size: [barsInGroup < 2 ? 0.7 : 0.4, 24], align }) } : {}),
    // Points on the line: a day between two days without a value (a rate with no attempt) still shows.
    points: { show: !bars, size: 5, fill: series.color },
    value: (_plot, value) => formatValue(value ?? null, series.format),
  };
}

/** An axis label: money without its cents when the tick is whole (US$ 2,000), so it fits beside the plot. */
function axisLabel(value: number, format: ChartSeries['format']): string {
  if (format.kind === 'money' && Number.isInteger(value)) return formatValue(value, format).replace(/\.00$/, '');
  if (format.kind === 'count' && !Number.isInteger(value)) return '';
  return formatValue(value, format);
}

function axisFor(scale: 'left' | 'right', format: ChartSeries['format']): uPlot.Axis {
  return {
    scale,
    side: scale === 'left' ? 3 : 1,
    font: axisFont,
    stroke: '#475569',
    grid: scale === 'left' ? grid : { show: false },
    ticks: { show: false },
    size: 80,
    values: (_plot, values) => values.map((value) => axisLabel(value, format)),
  };
}

/** From zero (or below) to a little above the highest value; a rate always 0–100 %. */
function valueRange(series: ChartSeries | undefined, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (series?.format.kind === 'percent') return [0, 1];
  const top = max ?? 0;
  return [Math.min(0, min ?? 0), top > 0 ? top * 1.1 : 1];
}

export default function UPlotChart({ spec, height }: { spec: ChartSpec; height: number }) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = target.current;
    // Without a 2D canvas (an old browser, a test DOM) the figure's text stands alone.
    if (!element || !document.createElement('canvas').getContext('2d')) return;
    const times = spec.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const barSeries = spec.series.filter((series) => series.kind === 'bars');
    const left = spec.series.find((series) => series.axis !== 'right');
    const right = spec.series.find((series) => series.axis === 'right');
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      // The days are UTC days: the axis and the legend show them as such, whatever the visitor's zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { live: false },
      scales: {
        // Half a day either side, so the first and the last day's bars are whole.
        x: { time: true, range: (_plot, min, max) => [min - 43_200, max + 43_200] },
        left: { range: (_plot, min, max) => valueRange(left, min, max) },
        right: { range: (_plot, min, max) => valueRange(right, min, max) },
      },
      series: [
        { label: 'Day (UTC)', value: (_plot, seconds) => (seconds == null ? '–' : formatDay(new Date(seconds * 1000).toISOString().slice(0, 10))) },
        ...spec.series.map((series) => seriesOptions(series, barSeries.length, barSeries.indexOf(series))),
      ],
      axes: [
        { font: axisFont, stroke: '#475569', grid: { show: false }, ticks: { show: false }, values: (_plot, ticks) => ticks.map((seconds) => formatDay(new Date(seconds * 1000).toISOString().slice(0, 10))) },
        ...(left ? [axisFor('left', left.format)] : []),
        ...(right ? [axisFor('right', right.format)] : []),
      ],
    };
    const data: uPlot.AlignedData = [times, ...spec.series.map((series) => series.values)];
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [spec, height]);
  return <div ref={target} aria-hidden="true" className="kestrel-chart w-full" />;
}

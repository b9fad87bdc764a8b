import { Component, lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatDay, formatValue, type ChartSpec } from './chart-spec.ts';

// The drawing code (uPlot) is a chunk of its own, fetched when a chart with data first comes
// on the screen: the page, its counters and the charts' text paint without it, and a chart
// below the fold (the dashboard's, on a phone) costs nothing until it is scrolled to.
const UPlotChart = lazy(() => import('./UPlotChart.tsx'));

/** A chart loads its drawing once this share of the drawing's place is on the screen. */
const ON_SCREEN = 0.2;

/** True once ON_SCREEN of the element has been on the screen (at once where the browser cannot tell). */
function useOnScreen<Element extends HTMLElement>() {
  const target = useRef<Element>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = target.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { threshold: ON_SCREEN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { target, near };
}

export const CHART_HEIGHT = 220;

/** A chunk that failed to load (offline, a new deployment) leaves the text in place of the drawing. */
class DrawingBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A chart with its heading, a visible summary sentence, and for screen readers a table of every
 * day's values (the drawing itself is hidden from them: it says nothing the table does not).
 * With no data, a clear sentence instead of an empty axis.
 */
export function ChartFigure({
  title,
  summary,
  spec,
  empty,
  emptyText,
  loading = false,
  error,
  headingLevel = 2,
}: {
  title: string;
  /** 3 inside a section that has its own h2 (the operator's overview). */
  headingLevel?: 2 | 3;
  summary?: string | undefined;
  spec: ChartSpec | undefined;
  /** True when there is nothing to draw (say so instead of drawing flat zeros). */
  empty: boolean;
  emptyText: string;
  loading?: boolean;
  error?: string | undefined;
}) {
  const headingId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby={headingId} aria-busy={loading || undefined} className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs">
      <Heading id={headingId} className="text-base font-semibold text-slate-900">
        {title}
      </Heading>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : empty ? (
        <p className="mt-3 flex h-55 items-center justify-center rounded-lg border border-dashed border-slate-300 px-4 text-center text-sm text-slate-600">
          {emptyText}
        </p>
      ) : loading || !spec ? (
        <div className="mt-3 h-55 animate-pulse rounded-lg bg-slate-100" />
      ) : (
        <>
          <Drawing spec={spec} />
          {/* Under the drawing, as its caption: a sentence this long above it was the page's largest text, painted last. */}
          {summary ? <p className="mt-3 text-sm text-slate-600">{summary}</p> : null}
          <ChartTable title={title} spec={spec} />
        </>
      )}
    </section>
  );
}

/** The chart's drawing, loaded and drawn once it comes on the screen; its place is kept meanwhile. */
function Drawing({ spec }: { spec: ChartSpec }) {
  const { target, near } = useOnScreen<HTMLDivElement>();
  return (
    <div ref={target} className="mt-3 min-h-55">
      {near ? (
        <DrawingBoundary>
          <Suspense fallback={<div className="rounded-lg bg-slate-50" />}>
            <UPlotChart spec={spec} height={CHART_HEIGHT} />
          </Suspense>
        </DrawingBoundary>
      ) : null}
    </div>
  );
}

/** Every day's values, for screen readers (visually hidden). Days are UTC days. */
function ChartTable({ title, spec }: { title: string; spec: ChartSpec }) {
  return (
    // The wrapper is what hides it: a table does not shrink to sr-only's 1 px and would widen a phone's page.
    <div className="sr-only">
      <table>
        <caption>{`${title}, per day (UTC)`}</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {spec.series.map((series) => (
              <th key={series.label} scope="col">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {spec.days.map((day, index) => (
            <tr key={day}>
              <th scope="row">{formatDay(day)}</th>
              {spec.series.map((series) => (
                <td key={series.label}>{formatValue(series.values[index] ?? null, series.format)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

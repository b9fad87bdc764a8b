import { useId, type ComponentType } from 'react';
import type { IconProps } from './icons.tsx';

export type CounterTone = 'brand' | 'success' | 'accent' | 'sky';

const tones: Record<CounterTone, string> = {
  brand: 'bg-brand-50 text-brand-700',
  success: 'bg-success-50 text-success-700',
  accent: 'bg-orange-50 text-accent-700',
  sky: 'bg-sky-50 text-sky-700',
};

/**
 * A labelled number on a card: the dashboard's counters, and later the payments,
 * withdrawals and payment-request counters.
 */
export function CounterCard({
  label,
  value,
  icon: Icon,
  tone = 'brand',
  loading = false,
  detail,
}: {
  label: string;
  value: number | string;
  icon: ComponentType<IconProps>;
  tone?: CounterTone;
  loading?: boolean;
  /** A second figure under the number (e.g. the refund counters' amount). */
  detail?: string | undefined;
}) {
  const labelId = useId();
  return (
    <article aria-labelledby={labelId} aria-busy={loading || undefined} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs">
      <div className="flex items-start justify-between gap-3">
        <h2 id={labelId} className="text-sm font-medium text-slate-600">
          {label}
        </h2>
        <span className={`flex size-10 shrink-0 items-center justify-center rounded-xl ${tones[tone]}`}>
          <Icon className="size-5" />
        </span>
      </div>
      {loading ? (
        <div className="mt-2 h-9 w-20 animate-pulse rounded-md bg-slate-200" />
      ) : (
        <>
          <p className="mt-2 text-3xl font-bold tracking-tight text-slate-900 tabular-nums">{value}</p>
          {detail !== undefined && <p className="mt-1 text-sm font-medium text-slate-600 tabular-nums">{detail}</p>}
        </>
      )}
    </article>
  );
}

import type { ReactNode } from 'react';

export type StatusTone = 'brand' | 'success' | 'danger' | 'neutral';

const toneClasses: Record<StatusTone, string> = {
  brand: 'bg-brand-50 text-brand-700',
  success: 'bg-success-50 text-success-700',
  danger: 'bg-danger-50 text-danger-700',
  neutral: 'bg-slate-100 text-slate-600',
};

/** A card with an icon, a heading, text and actions: the body of every status page. */
export function StatusCard({
  icon,
  tone = 'brand',
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  tone?: StatusTone;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
      <div className={`mx-auto flex size-14 items-center justify-center rounded-full text-3xl ${toneClasses[tone]}`}>{icon}</div>
      <h1 className="mt-5 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children && <div className="mt-3 text-slate-600">{children}</div>}
      {actions && <div className="mt-7 flex flex-col items-stretch gap-3 sm:flex-row sm:justify-center">{actions}</div>}
    </section>
  );
}

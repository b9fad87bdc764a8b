import { PAYMENT_LIST_STATUSES, type PaymentListStatus } from '@kestrel/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button.tsx';
import type { PaymentFilters } from '../api.ts';

const statusLabels: Record<PaymentListStatus, string> = { success: 'Succeeded', initiate: 'Initiated', failed: 'Failed' };
const inputClasses = 'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus-visible:outline-none';

/**
 * A store's Payments tab: search by order ID, customer e-mail or payment ID (applied on Search
 * or Enter), a status and a date range (applied as they change). The server does the finding.
 */
export function PaymentFiltersForm({ value, onChange }: { value: PaymentFilters; onChange: (filters: PaymentFilters) => void }) {
  const [q, setQ] = useState(value.q ?? '');
  const id = useId();
  const set = (patch: PaymentFilters) => onChange({ ...value, ...patch });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: q.trim() });
  };
  const filtered = Boolean(value.q || value.status || value.from || value.to);
  return (
    <form role="search" aria-label="Find payments" onSubmit={onSubmit} className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end">
      <label className="block text-sm font-medium text-slate-700">
        Search
        <input type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder="Order ID, customer e-mail or payment ID" className={`mt-1 ${inputClasses}`} />
      </label>
      <div>
        <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-700">
          Status
        </label>
        <select id={`${id}-status`} value={value.status ?? ''} onChange={(event) => set({ status: event.target.value as PaymentListStatus | '' })} className={`mt-1 ${inputClasses}`}>
          <option value="">All</option>
          {PAYMENT_LIST_STATUSES.map((status) => (
            <option key={status} value={status}>
              {statusLabels[status]}
            </option>
          ))}
        </select>
      </div>
      <label className="block text-sm font-medium text-slate-700">
        From
        <input type="date" value={value.from ?? ''} max={value.to || undefined} onChange={(event) => set({ from: event.target.value })} className={`mt-1 ${inputClasses}`} />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        To
        <input type="date" value={value.to ?? ''} min={value.from || undefined} onChange={(event) => set({ to: event.target.value })} className={`mt-1 ${inputClasses}`} />
      </label>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
        <Button type="submit">Search</Button>
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => {
              setQ('');
              onChange({});
            }}
          >
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

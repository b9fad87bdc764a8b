import { COPIED_HINT_MS, storeMessages, type StoreStatus } from '@kestrel/shared';
import { useEffect, useState } from 'react';

/** The spec's colours: Pending yellow, Approved green, anything else red. */
export function StoreStatusBadge({ status }: { status: StoreStatus }) {
  const tone =
    status === 'Approved'
      ? 'bg-success-50 text-success-700 ring-success-600/20'
      : status === 'Pending'
        ? 'bg-amber-50 text-amber-800 ring-amber-600/30'
        : 'bg-danger-50 text-danger-700 ring-danger-600/20';
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>{status}</span>;
}

/** A value with a copy button; 'Copied!' shows for 3 seconds after a copy. */
export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_HINT_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 flex items-center gap-2">
        <code className={`min-w-0 flex-1 rounded-md bg-slate-100 px-2 py-1.5 font-mono text-sm break-all text-slate-900 ${secret ? 'select-all' : ''}`}>{value}</code>
        <button
          type="button"
          onClick={() => void copy()}
          className="h-9 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          aria-label={`Copy ${label}`}
        >
          Copy
        </button>
        <span role="status" className="w-14 text-sm font-semibold text-success-700">
          {copied ? storeMessages.copied : ''}
        </span>
      </dd>
    </div>
  );
}

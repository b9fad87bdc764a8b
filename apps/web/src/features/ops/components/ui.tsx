import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Button, type ButtonVariant } from '../../../components/Button.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { errorMessage, http } from '../../../lib/http.ts';
import { formatApiMoney } from '../../../lib/money.ts';
import { isCurrency } from '@kestrel/shared';

/** A console page's heading and document title. */
export function OpsHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <PageTitle title={`${title} · Operations`} />
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children}
    </div>
  );
}

export function Panel({ title, children, className = '' }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm ${className}`}>
      {title ? <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2> : null}
      {children}
    </section>
  );
}

/** Loading, failed or empty states of a console query, or its content. */
export function QueryState({ isPending, error, empty, emptyText, children }: { isPending: boolean; error: unknown; empty?: boolean; emptyText?: string; children: ReactNode }) {
  if (isPending) return <Spinner label="Loading" />;
  if (error) return <p role="alert" className="text-danger-700">{errorMessage(error, 'Could not load this. Try again.')}</p>;
  if (empty) return <p className="text-slate-600">{emptyText ?? 'Nothing here.'}</p>;
  return <>{children}</>;
}

/** A console queue: each item of the query in its own panel, as an article named `label(item)`; loading, failure and an empty queue as `QueryState` shows them. */
export function PanelList<Item>({
  query,
  emptyText,
  itemKey,
  label,
  className,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: readonly Item[] | undefined };
  emptyText: string;
  itemKey: (item: Item) => string;
  label: (item: Item) => string;
  className: string;
  children: (item: Item) => ReactNode;
}) {
  return (
    <QueryState isPending={query.isPending} error={query.error} empty={query.data?.length === 0} emptyText={emptyText}>
      <ul className="space-y-4">
        {query.data?.map((item) => (
          <li key={itemKey(item)}>
            <Panel>
              <article aria-label={label(item)} className={className}>
                {children(item)}
              </article>
            </Panel>
          </li>
        ))}
      </ul>
    </QueryState>
  );
}

/** The "Status" filter of a queue's heading; `all` adds "All" (the value ''). */
export function StatusFilter({ value, statuses, all = false, onChange }: { value: string; statuses: readonly string[]; all?: boolean; onChange: (value: string) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
      Status
      <select value={value} onChange={(event) => onChange(event.target.value)} className="h-10 rounded-lg border border-slate-300 bg-white px-2">
        {all && <option value="">All</option>}
        {statuses.map((status) => (
          <option key={status}>{status}</option>
        ))}
      </select>
    </label>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'Approved' || status === 'Completed' || status === 'success'
      ? 'bg-emerald-100 text-emerald-900'
      : status === 'Rejected' || status === 'Failed' || status === 'Suspended' || status === 'Refused'
        ? 'bg-red-100 text-red-900'
        : 'bg-amber-100 text-amber-900';
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{status}</span>;
}

/** A definition list of label/value rows. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * An action that changes something and needs a reason: the reason field and its button.
 * The API refuses an empty reason too; this only says so before the round trip.
 */
export function ReasonAction({
  label,
  variant = 'secondary',
  onSubmit,
  pending,
  placeholder = 'Reason (kept in the audit log)',
}: {
  label: string;
  variant?: ButtonVariant;
  onSubmit: (reason: string) => Promise<unknown>;
  pending: boolean;
  placeholder?: string;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem('Reason is required');
      return;
    }
    setProblem(null);
    try {
      await onSubmit(reason.trim());
      setReason('');
    } catch {
      // The caller's toast says what went wrong; the reason stays for another try.
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col items-start gap-2" noValidate>
      <div className="w-full max-w-xl">
        <label htmlFor={id} className="sr-only">
          {`${label}: reason`}
        </label>
        <input
          id={id}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          maxLength={500}
          className="h-10 w-full rounded-lg border border-slate-300 px-3 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
        />
        {problem ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-danger-700">
            {problem}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant={variant} loading={pending}>
        {label}
      </Button>
    </form>
  );
}

/** Runs a console change and toasts its outcome; rethrows so a form can keep its input. */
export async function withToast<T>(work: Promise<T>, success: string | ((result: T) => string), failure: string): Promise<T> {
  try {
    const result = await work;
    toast.success(typeof success === 'function' ? success(result) : success);
    return result;
  } catch (error) {
    toast.error(errorMessage(error, failure));
    throw error;
  }
}

/** An image only operators may fetch: loaded with the session token, shown from a blob URL. */
export function AuthImage({ src, alt, className = '' }: { src: string; alt: string; className?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    http
      .blob(src, { signal: controller.signal })
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src]);
  if (failed) return <p className="text-sm text-danger-700">The image could not be loaded.</p>;
  if (!url) return <Spinner label="Loading image" />;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="block">
      <img src={url} alt={alt} className={`max-h-80 w-full rounded-lg border border-slate-200 object-contain ${className}`} />
    </a>
  );
}

export const when = (iso: string) => new Date(iso).toLocaleString();

/** An amount the API sent in major units, in its currency. */
export function money(amount: number, currency: string): string {
  return isCurrency(currency) ? formatApiMoney(amount, currency) : `${amount} ${currency}`;
}

/** Newer / Older paging under a list, with where the reader is ("Page 2 of 5 (112 entries)"). */
export function Pager({ label, page, pages, total, noun, onPage }: { label: string; page: number; pages: number; total: number; noun: string; onPage: (page: number) => void }) {
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center gap-3">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer
      </Button>
      <span className="text-sm text-slate-700">
        Page {page} of {pages} ({total} {noun})
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Older
      </Button>
    </nav>
  );
}

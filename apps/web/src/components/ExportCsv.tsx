import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../lib/http.ts';
import { downloadExport } from '../lib/download.ts';
import { Button } from './Button.tsx';
import { DownloadIcon } from './icons.tsx';

export const exportMessages = {
  toBeforeFrom: "'To' must be on or after 'From'",
  failed: 'The export could not be downloaded.',
  downloaded: (filename: string) => `Downloaded ${filename}`,
};

/** 'To' before 'From' is refused here, with a message under 'To' (the API refuses it too). */
export function exportRangeError(range: { from: string; to: string }): string | undefined {
  return range.from && range.to && range.to < range.from ? exportMessages.toBeforeFrom : undefined;
}

const inputClasses =
  'mt-1 h-11 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-xs focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus-visible:outline-none';

/**
 * "Export CSV" on a list page (issue 26): opens a small form with an optional day range (UTC
 * days, both ends included, either may stay empty) that downloads the list's export with the
 * session's token (lib/download.ts) and saves it. Escape closes the form and returns focus.
 */
export function ExportCsv({ path, filename, what, label = 'Export CSV' }: { path: string; filename: string; what: string; label?: string }) {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState({ from: '', to: '' });
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const fromInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const rangeError = touched ? exportRangeError(range) : undefined;

  // The form takes the focus when it opens, so a keyboard user goes on in it.
  useEffect(() => {
    if (open) fromInput.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (exportRangeError(range)) return;
    setBusy(true);
    setResult(null);
    try {
      const saved = await downloadExport(path, filename, { from: range.from || undefined, to: range.to || undefined });
      setResult({ ok: true, text: exportMessages.downloaded(saved) });
    } catch (error) {
      setResult({ ok: false, text: errorMessage(error, exportMessages.failed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="relative w-full sm:w-auto">
      <Button
        ref={toggle}
        variant="secondary"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => (open ? close() : setOpen(true))}
        className="w-full sm:w-auto"
      >
        <DownloadIcon className="size-4" />
        {label}
      </Button>
      {open && (
        <form
          id={`${id}-panel`}
          aria-label={`Export ${what} as CSV`}
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          onKeyDown={onKeyDown}
          className="z-20 mt-2 w-full space-y-3 rounded-2xl border border-slate-200 bg-white p-4 text-left shadow-lg sm:absolute sm:right-0 sm:w-80"
        >
          <p id={`${id}-hint`} className="text-sm text-slate-600">
            {`All ${what}, or only those between two days (UTC, both included). Leave a date empty for no limit on that side.`}
          </p>
          <div className="grid grid-cols-2 items-start gap-3">
            <div>
              <label htmlFor={`${id}-from`} className="block text-sm font-medium text-slate-700">
                From
              </label>
              <input
                id={`${id}-from`}
                type="date"
                value={range.from}
                aria-describedby={`${id}-hint`}
                onChange={(event) => setRange({ ...range, from: event.target.value })}
                className={`${inputClasses} border-slate-300`}
                ref={fromInput}
              />
            </div>
            <div>
              <label htmlFor={`${id}-to`} className="block text-sm font-medium text-slate-700">
                To
              </label>
              <input
                id={`${id}-to`}
                type="date"
                value={range.to}
                min={range.from || undefined}
                aria-invalid={rangeError ? true : undefined}
                aria-describedby={rangeError ? `${id}-hint ${id}-to-error` : `${id}-hint`}
                onChange={(event) => setRange({ ...range, to: event.target.value })}
                className={`${inputClasses} ${rangeError ? 'border-danger-600' : 'border-slate-300'}`}
              />
              {rangeError && (
                <p id={`${id}-to-error`} className="mt-1 text-sm font-medium text-danger-700">
                  {rangeError}
                </p>
              )}
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" loading={busy}>
              Download CSV
            </Button>
            <Button variant="ghost" onClick={close}>
              Close
            </Button>
          </div>
          <p role={result && !result.ok ? 'alert' : 'status'} className={`text-sm break-words ${result?.ok ? 'text-success-700' : 'text-danger-700'}`}>
            {result?.text}
          </p>
        </form>
      )}
    </div>
  );
}

import { useId, type ComponentProps, type ReactNode } from 'react';

export interface SelectFieldProps extends ComponentProps<'select'> {
  label: string;
  /** Shown in red under the field and announced with it. */
  error?: string | undefined;
  /** A short note under the field (e.g. a rule), announced with it. */
  hint?: ReactNode;
  /** The empty first choice ("Select…"); it reads as not chosen, so a required field shows its message. */
  placeholderOption?: string;
}

/**
 * A native select drawn like FloatingField with its label already raised, so forms that
 * mix text inputs and choices line up. Native keeps keyboard, screen reader and phone
 * pickers working without extra code.
 */
export function SelectField({ label, error, hint, placeholderOption, id, className = '', children, ...selectProps }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  const hintId = `${selectId}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <div className="relative">
        <select
          id={selectId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`block h-14 w-full appearance-none rounded-lg border bg-white pt-5 pr-10 pb-1.5 pl-3.5 text-base text-slate-900 shadow-xs transition-colors focus:ring-1 focus-visible:outline-none ${
            error
              ? 'border-danger-600 focus:border-danger-600 focus:ring-danger-600'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-600'
          }`}
          {...selectProps}
        >
          {placeholderOption !== undefined && <option value="">{placeholderOption}</option>}
          {children}
        </select>
        <label
          htmlFor={selectId}
          className={`pointer-events-none absolute top-2 left-3.5 max-w-[calc(100%-3rem)] truncate text-xs font-medium ${
            error ? 'text-danger-700' : 'text-slate-600'
          }`}
        >
          {label}
        </label>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500"
        >
          <path d="M5.2 7.5a.75.75 0 011.06 0L10 11.2l3.74-3.7a.75.75 0 111.06 1.06l-4.27 4.24a.75.75 0 01-1.06 0L5.2 8.56a.75.75 0 010-1.06z" />
        </svg>
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
    </div>
  );
}

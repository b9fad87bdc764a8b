import { useId, type ComponentProps } from 'react';

export interface FloatingSelectProps extends ComponentProps<'select'> {
  label: string;
  error?: string | undefined;
}

/** A select drawn like FloatingField (label inside the top of the box), so a form's fields line up. */
export function FloatingSelect({ label, error, id, className = '', children, ...selectProps }: FloatingSelectProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div className={className}>
      <div className="relative">
        <select
          id={selectId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`block h-14 w-full appearance-none rounded-lg border bg-white px-3.5 pt-5 pb-1.5 pr-10 text-base text-slate-900 shadow-xs transition-colors focus:ring-1 focus-visible:outline-none ${
            error
              ? 'border-danger-600 focus:border-danger-600 focus:ring-danger-600'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-600'
          }`}
          {...selectProps}
        >
          {children}
        </select>
        <label
          htmlFor={selectId}
          className={`pointer-events-none absolute top-2 left-3.5 text-xs font-medium ${error ? 'text-danger-700' : 'text-slate-600'}`}
        >
          {label}
        </label>
        <svg
          viewBox="0 0 20 20"
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3.5 size-5 -translate-y-1/2 text-slate-500"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.75}
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M6 8l4 4 4-4" />
        </svg>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from './icon-base.tsx';

export interface FloatingFieldProps extends Omit<ComponentProps<'input'>, 'placeholder'> {
  label: string;
  /** The field's error message, shown in red under it and announced with the input. */
  error?: string | undefined;
  /** A control drawn inside the field's right edge (e.g. the password toggle). */
  trailing?: ReactNode;
}

/**
 * A text input whose label sits inside the field and rises when the field is focused or
 * filled (the spec's floating labels). The label stays a real <label>, so the input is
 * named for screen readers; the placeholder is a single space only to drive the CSS.
 */
export function FloatingField({ label, error, id, trailing, className = '', ...inputProps }: FloatingFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <div className="relative">
        <input
          id={inputId}
          placeholder=" "
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`peer block h-14 w-full rounded-lg border bg-white px-3.5 pt-5 pb-1.5 text-base text-slate-900 shadow-xs transition-colors focus:ring-1 focus-visible:outline-none ${
            trailing ? 'pr-12' : ''
          } ${
            error
              ? 'border-danger-600 focus:border-danger-600 focus:ring-danger-600'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-600'
          }`}
          {...inputProps}
        />
        <label
          htmlFor={inputId}
          className={`pointer-events-none absolute top-2 left-3.5 max-w-[calc(100%-1.75rem)] truncate text-xs font-medium transition-all duration-150 ${
            error ? 'text-danger-700' : 'text-slate-600 peer-focus:text-brand-700'
          } peer-[:placeholder-shown:not(:focus)]:top-4 peer-[:placeholder-shown:not(:focus)]:text-base peer-[:placeholder-shown:not(:focus)]:font-normal`}
        >
          {label}
        </label>
        {trailing}
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A floating-label password input with a show/hide toggle. */
export function PasswordField(props: Omit<FloatingFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOffIcon : EyeIcon;
  return (
    <FloatingField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? 'Hide password' : 'Show password'}
          className="absolute inset-y-0 right-1 my-auto flex size-10 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <Icon className="size-5" />
        </button>
      }
    />
  );
}

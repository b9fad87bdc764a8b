import { passkeyText } from '@kestrel/shared';
import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField, type FloatingFieldProps } from '../../../components/FloatingField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';

/** The white card a form of the Security tab stands in. */
export const securityCard = 'flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs';

interface SecurityFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The submit button's words; `danger` draws it red (turning off, removing). */
  submit: string;
  danger?: boolean;
  pending: boolean;
  onCancel: () => void;
  cancel: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/** A form of the Security tab (a new passkey, turning two-factor on or off, removing a passkey): its fields, then the submit button and Cancel side by side. */
export function SecurityForm({ onSubmit, submit, danger = false, pending, onCancel, cancel, className = securityCard, 'aria-label': label, children }: SecurityFormProps) {
  return (
    <form noValidate aria-label={label} className={className} onSubmit={onSubmit}>
      {children}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={pending}>
          {submit}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {cancel}
        </Button>
      </div>
    </form>
  );
}

/** The confirmation by a current second factor: a code from the authenticator app or a recovery code, typed as it is. */
export function CurrentCodeField(props: FloatingFieldProps) {
  return <FloatingField autoComplete="one-time-code" autoCapitalize="off" spellCheck={false} {...props} />;
}

/**
 * The account's password, asked before a second factor is added (an app or a passkey): the
 * re-authentication that keeps a stolen session from adding the thief's. Its messages are the
 * sign-in's for a missing password, and the server's for a wrong one (passwordRefusal).
 */
export function ReauthenticationField(props: Omit<FloatingFieldProps, 'type' | 'trailing' | 'label' | 'autoComplete'>) {
  return <PasswordField label={passkeyText.password} autoComplete="current-password" {...props} />;
}

/** The server's refusal of the re-authentication (a wrong password, too many tries), for under the Password field; undefined for anything else. */
export function passwordRefusal(error: unknown): string | undefined {
  if (error instanceof ApiError && error.fromServer && (error.code === 'password_invalid' || error.code === 'login_rate_limited')) return error.message;
  return undefined;
}

/** A Security-tab section whose query has no answer: a spinner named `label` while it loads, else the server's message (or `fallback`). */
export function SectionWait({ query, label, fallback }: { query: { isPending: boolean; error: unknown }; label: string; fallback: string }) {
  return query.isPending ? (
    <div className="flex justify-center py-6 text-brand-700">
      <Spinner className="size-8" label={label} />
    </div>
  ) : (
    <p role="alert" className="rounded-lg bg-danger-50 p-4 text-danger-700">
      {errorMessage(query.error, fallback)}
    </p>
  );
}

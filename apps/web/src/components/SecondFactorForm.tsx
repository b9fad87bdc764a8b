import { twoFactorMessages as m, twoFactorText as t } from '@kestrel/shared';
import { useState } from 'react';
import { usePlainForm } from '../lib/plain-form.ts';
import { Button } from './Button.tsx';
import { FloatingField } from './FloatingField.tsx';

interface CodeForm {
  code: string;
}

const appCodeRule = (value: string) => {
  const code = value.replace(/\s/g, '');
  if (!code) return m.codeRequired;
  return /^\d{6}$/.test(code) ? undefined : m.codeFormat;
};
const recoveryCodeRule = (value: string) => (value.trim() ? undefined : m.recoveryCodeRequired);

export interface SecondFactorFormProps {
  /** Sends the code; answers the server's refusal to show under the field, or nothing when it went through. */
  onSubmit: (code: string) => Promise<string | undefined>;
  /** "Back to login": give up this sign-in's second step. */
  onStartOver?: () => void;
  disabled?: boolean;
}

/**
 * The second step of a sign-in with two-factor sign-in on (issue 25): the 6-digit code from
 * the authenticator app, or one of the recovery codes. Its rules run as the login form's do
 * (usePlainForm, messages under the field), and the server's refusal shows under the field too.
 * Used by the login page and the pay pages' wallet login, so it stays small (no zod).
 */
export function SecondFactorForm({ onSubmit, onStartOver, disabled = false }: SecondFactorFormProps) {
  const [recovery, setRecovery] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const { field, handleSubmit, isSubmitting, setValue } = usePlainForm<CodeForm>({ code: '' }, { code: recovery ? recoveryCodeRule : appCodeRule });
  const codeField = field('code');

  const switchMode = () => {
    setRecovery((current) => !current);
    setRefusal(undefined);
    setValue('code', '');
  };

  return (
    <form
      noValidate
      onSubmit={handleSubmit(async ({ code }) => {
        setRefusal(undefined);
        setRefusal(await onSubmit(recovery ? code.trim() : code.replace(/\s/g, '')));
      })}
    >
      <fieldset disabled={disabled} className="min-w-0 space-y-5">
        <p className="text-sm text-slate-600">{recovery ? m.recoveryCodeRequired : m.secondStep}</p>
        <FloatingField
          key={recovery ? 'recovery' : 'app'}
          label={recovery ? t.recoveryCode : t.code}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="off"
          spellCheck={false}
          maxLength={recovery ? 40 : 7}
          // The step replaces the password form: the code field takes the focus it had.
          autoFocus
          {...codeField}
          onChange={(event) => {
            setRefusal(undefined);
            codeField.onChange(event);
          }}
          error={codeField.error ?? refusal}
        />
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {t.verify}
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <button type="button" onClick={switchMode} className="rounded font-medium text-brand-700 hover:text-brand-900 hover:underline">
            {recovery ? t.useAppCode : t.useRecoveryCode}
          </button>
          {onStartOver && (
            <button type="button" onClick={onStartOver} className="rounded font-medium text-slate-600 hover:text-slate-900 hover:underline">
              {t.startOver}
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  passkeyText,
  reauthenticationForm,
  twoFactorDisableForm,
  twoFactorEnableForm,
  twoFactorMessages,
  twoFactorSectionText as t,
  type ReauthenticationForm,
  type TwoFactorDisableForm,
  type TwoFactorEnableForm,
  type TwoFactorSetup,
} from '@kestrel/shared';
import { useEffect, useState } from 'react';
import { useForm, type UseFormSetError } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button, buttonClasses } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { qrSvgAddress } from '../../../lib/qr-code.ts';
import { CurrentCodeField, passwordRefusal, ReauthenticationField, SectionWait, SecurityForm } from './SecurityForm.tsx';
import { useDisableTwoFactor, useEnableTwoFactor, usePasskeys, useRenewRecoveryCodes, useStartTwoFactorSetup, useTwoFactorStatus } from '../api.ts';

/** A refusal the server explained (wrong or reused code, too many tries) goes under the field; anything else is a toast. */
function showRefusal(error: unknown, setError: UseFormSetError<{ code: string }>) {
  if (error instanceof ApiError && error.fromServer && error.status >= 400 && error.status < 500) setError('code', { message: error.message }, { shouldFocus: true });
  else toast.error(errorMessage(error, t.failed));
}

/** The base32 key in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function QrImage({ uri }: { uri: string }) {
  const [address, setAddress] = useState<string>();
  useEffect(() => {
    let current = true;
    void qrSvgAddress(uri).then((made) => {
      if (current) setAddress(made);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  return address ? (
    <img src={address} alt="QR code to scan with your authenticator app" width={176} height={176} className="size-44 shrink-0 rounded-lg border border-slate-200 bg-white" />
  ) : (
    <div role="status" aria-label="Drawing the QR code" className="size-44 shrink-0 animate-pulse rounded-lg bg-slate-200/70" />
  );
}

/**
 * Turning on starts with the account's password (re-authentication: a stolen session must not
 * add the thief's app); the setup is made only then, and the password goes with the code.
 */
function PasswordStep({ label, onCancel, onStarted }: { label: string; onCancel: () => void; onStarted: (setup: TwoFactorSetup, password: string) => void }) {
  const start = useStartTwoFactorSetup();
  const { register, handleSubmit, setError, formState } = useForm<ReauthenticationForm>({ resolver: zodResolver(reauthenticationForm), defaultValues: { password: '' } });
  return (
    <SecurityForm
      aria-label={label}
      submit={t.continue}
      pending={start.isPending}
      onCancel={onCancel}
      cancel={t.cancel}
      onSubmit={handleSubmit(({ password }) =>
        start.mutate(password, {
          onSuccess: (setup) => onStarted(setup, password),
          onError: (error) => {
            const refusal = passwordRefusal(error);
            if (refusal) setError('password', { message: refusal }, { shouldFocus: true });
            else toast.error(errorMessage(error, t.failed));
          },
        }),
      )}
    >
      <p className="text-sm text-slate-600">{t.passwordHint}</p>
      <ReauthenticationField autoFocus {...register('password')} error={formState.errors.password?.message} />
    </SecurityForm>
  );
}

/** Scan (or type) the secret, then confirm with a code from the app (the password of the first step goes with it). */
function EnrolForm({ setup, password, onCancel, onEnabled }: { setup: TwoFactorSetup; password: string; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const enable = useEnableTwoFactor();
  const { register, handleSubmit, setError, formState } = useForm<TwoFactorEnableForm>({ resolver: zodResolver(twoFactorEnableForm), defaultValues: { code: '' } });
  return (
    <div className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs">
      <p className="text-sm text-slate-700">{t.scan}</p>
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <QrImage uri={setup.otpauthUri} />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-600">{t.key}</p>
          <p data-testid="two-factor-secret" className="mt-1 font-mono text-base break-words text-slate-900 select-all">
            {grouped(setup.secret)}
          </p>
          <SecurityForm
            className="mt-5 flex flex-col gap-4"
            submit={t.confirm}
            pending={enable.isPending}
            onCancel={onCancel}
            cancel={t.cancel}
            onSubmit={handleSubmit(({ code }) =>
              enable.mutate(
                { code: code.replace(/\s/g, ''), password },
                {
                  onSuccess: (answer) => {
                    toast.success(answer.message ?? twoFactorMessages.enabled);
                    onEnabled(answer.data.recoveryCodes);
                  },
                  onError: (error) => {
                    // The password no longer right (changed meanwhile): start again from it.
                    const refusal = passwordRefusal(error);
                    if (refusal) {
                      toast.error(refusal);
                      onCancel();
                    } else showRefusal(error, setError);
                  },
                },
              ),
            )}
          >
            <FloatingField label={t.code} autoComplete="one-time-code" inputMode="numeric" maxLength={7} {...register('code')} error={formState.errors.code?.message} />
          </SecurityForm>
        </div>
      </div>
    </div>
  );
}

/** The ten recovery codes, shown this once, with copy and download. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Kestrel recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-warning-700/30 bg-warning-50 p-5">
      <div>
        <h3 className="text-base font-semibold text-slate-900">{t.recoveryTitle}</h3>
        <p className="mt-1 text-sm text-slate-700">{t.recoveryHint}</p>
      </div>
      <ul aria-label={t.recoveryTitle} className="grid max-w-lg grid-cols-1 gap-2 font-mono text-base text-slate-900 min-[360px]:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-white px-3 py-1.5 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => toast.success(t.copied),
              () => toast.error(t.failed),
            )
          }
        >
          {t.copy}
        </Button>
        <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="kestrel-recovery-codes.txt" className={buttonClasses('secondary')}>
          {t.download}
        </a>
        <Button onClick={onDone}>{t.done}</Button>
      </div>
    </div>
  );
}

/** New recovery codes ask for a current code from the app; the new codes are shown once, like the first ones. */
function RenewForm({ onCancel, onRenewed }: { onCancel: () => void; onRenewed: (codes: string[]) => void }) {
  const renew = useRenewRecoveryCodes();
  const { register, handleSubmit, setError, formState } = useForm<TwoFactorDisableForm>({ resolver: zodResolver(twoFactorDisableForm), defaultValues: { code: '' } });
  return (
    <SecurityForm
      aria-label={t.renew}
      submit={t.renewConfirm}
      pending={renew.isPending}
      onCancel={onCancel}
      cancel={t.cancel}
      onSubmit={handleSubmit(({ code }) =>
        renew.mutate(code.trim(), {
          onSuccess: (answer) => {
            toast.success(answer.message ?? twoFactorMessages.recoveryCodesRenewed);
            onRenewed(answer.data.recoveryCodes);
          },
          onError: (error) => showRefusal(error, setError),
        }),
      )}
    >
      <p className="text-sm text-slate-600">{t.renewHint}</p>
      <CurrentCodeField label={t.renewCode} {...register('code')} error={formState.errors.code?.message} />
    </SecurityForm>
  );
}

/** Turning off asks for a current code (the app's or a recovery code). */
function DisableForm({ onCancel }: { onCancel: () => void }) {
  const disable = useDisableTwoFactor();
  const { register, handleSubmit, setError, formState } = useForm<TwoFactorDisableForm>({ resolver: zodResolver(twoFactorDisableForm), defaultValues: { code: '' } });
  return (
    <SecurityForm
      submit={t.offConfirm}
      danger
      pending={disable.isPending}
      onCancel={onCancel}
      cancel={t.cancel}
      onSubmit={handleSubmit(({ code }) =>
        disable.mutate(code.trim(), {
          onSuccess: (answer) => {
            toast.success(answer.message ?? twoFactorMessages.disabled);
            onCancel();
          },
          onError: (error) => showRefusal(error, setError),
        }),
      )}
    >
      <CurrentCodeField label={t.offCode} {...register('code')} error={formState.errors.code?.message} />
    </SecurityForm>
  );
}

/**
 * My Account → Security: two-factor sign-in with an authenticator app (issue 25). Off: "Turn
 * on" starts a setup (QR code and the key as text), a code confirms it, and the ten recovery
 * codes are shown once. On: the recovery codes left, "New recovery codes" (an app code makes
 * ten new ones, shown once) and "Turn off", which asks for a code.
 */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const passkeys = usePasskeys();
  const on = status.data?.enabled === true;
  // A passkey is a second factor too: two-factor sign-in is on without an app (README, Passkeys).
  const byPasskey = !on && (passkeys.data?.length ?? 0) > 0;
  const [asking, setAsking] = useState(false);
  const [setup, setSetup] = useState<{ setup: TwoFactorSetup; password: string }>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [open, setOpen] = useState<'off' | 'renew' | null>(null);

  let body;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />;
  } else if (status.isPending || status.isError) {
    body = <SectionWait query={status} label={t.title} fallback={t.failed} />;
  } else if (status.data.enabled) {
    body = (
      <>
        <p className="text-sm text-slate-700">
          {t.recoveryLeft}: <strong>{status.data.recoveryCodesLeft}</strong>
        </p>
        {open === 'off' && <DisableForm onCancel={() => setOpen(null)} />}
        {open === 'renew' && (
          <RenewForm
            onCancel={() => setOpen(null)}
            onRenewed={(codes) => {
              setOpen(null);
              setRecoveryCodes(codes);
            }}
          />
        )}
        {open === null && (
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setOpen('renew')}>
              {t.renew}
            </Button>
            <Button variant="secondary" onClick={() => setOpen('off')}>
              {t.turnOff}
            </Button>
          </div>
        )}
      </>
    );
  } else if (setup) {
    body = (
      <EnrolForm
        setup={setup.setup}
        password={setup.password}
        onCancel={() => setSetup(undefined)}
        onEnabled={(codes) => {
          setSetup(undefined);
          setRecoveryCodes(codes);
        }}
      />
    );
  } else if (asking) {
    body = (
      <PasswordStep
        label={byPasskey ? passkeyText.addApp : t.turnOn}
        onCancel={() => setAsking(false)}
        onStarted={(started, password) => {
          setAsking(false);
          setSetup({ setup: started, password });
        }}
      />
    );
  } else {
    body = (
      <Button className="self-start" onClick={() => setAsking(true)}>
        {byPasskey ? passkeyText.addApp : t.turnOn}
      </Button>
    );
  }

  return (
    <section aria-labelledby="two-factor-title" className="flex flex-col gap-4">
      <div>
        <h2 id="two-factor-title" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold text-slate-900">
          {t.title}
          {status.data && (
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${on || byPasskey ? 'bg-success-50 text-success-700' : 'bg-slate-100 text-slate-700'}`}>
              {on ? t.on : byPasskey ? passkeyText.onWithPasskey : t.off}
            </span>
          )}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{on ? t.onHint : byPasskey ? passkeyText.onWithPasskeyHint : t.offHint}</p>
      </div>
      {body}
    </section>
  );
}

import { messages, passkeySignInText, PRODUCT_NAME, twoFactorText, uiText, type LoginBody } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { SecondFactorForm } from '../../../components/SecondFactorForm.tsx';
import { ApiError } from '../../../lib/http.ts';
import { isBrowserPasskeyError, passkeyAssertion } from '../../../lib/passkeys.ts';
import { usePlainForm, type FormRules } from '../../../lib/plain-form.ts';
import { startSession } from '../../../lib/session.ts';
import { useLogin, useLoginSecondStep, usePasskeySignIn, type SecondStepNeeded, type SignedIn } from '../api.ts';
import { AuthCard, AuthLayout } from '../components/AuthLayout.tsx';
import { loginErrorToast } from '../components/toasts.ts';
import { useHydrated } from '../../../lib/hydrated.ts';

const t = uiText.login;

/*
 * The front door is checked like the pay pages, without react-hook-form and zod (a quarter of
 * its download): the rules of the API's loginBody, with its messages.
 */
const loginRules: FormRules<LoginBody> = {
  email: (value) => (value.trim() ? undefined : messages.login.emailRequired),
  password: (value) => (value ? undefined : messages.login.passwordRequired),
};

/** The message for a failed login: wrong credentials, the server's text (rate limit), or 'Login failed!'. */
function loginFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return messages.login.failed;
  if (error.status === 401) return messages.login.invalid;
  if (error.fromServer && error.message) return error.message;
  return error.status === 0 ? messages.login.failed : messages.login.invalid;
}

/**
 * The second step's refusal for under the code field (wrong, reused, recovery code), or
 * undefined after telling the user otherwise (an expired challenge goes back to the password).
 */
function secondStepRefusal(error: unknown, startOver: () => void): string | undefined {
  const fromServer = error instanceof ApiError && error.fromServer && error.message ? error.message : undefined;
  if (error instanceof ApiError && error.code === 'login_challenge_invalid') {
    startOver();
    loginErrorToast(fromServer ?? messages.login.failed);
    return undefined;
  }
  if (fromServer) return fromServer;
  loginErrorToast(messages.login.failed);
  return undefined;
}

/** A passkey that did not sign in: the browser's refusal (cancelled, timed out) or the server's words. */
function passkeyFailureToast(error: unknown): void {
  if (isBrowserPasskeyError(error)) loginErrorToast(passkeySignInText.cancelled);
  else if (error instanceof ApiError && error.fromServer && error.message) loginErrorToast(error.message);
  else loginErrorToast(messages.login.failed);
}

/** "Sign in with a passkey" (or, in the second step, "Use a passkey"): the browser's passkey prompt, then the session. */
function PasskeyButton({ label, pending, onClick, disabled = false }: { label: string; pending: boolean; onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="secondary" size="lg" className="w-full" loading={pending} disabled={disabled} onClick={onClick}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="9" cy="8" r="4" />
        <path d="M3 20c0-3.3 2.7-6 6-6 1.3 0 2.5.4 3.5 1.1" />
        <circle cx="18" cy="14" r="2.5" />
        <path d="M18 16.5V21m0-2h2" />
      </svg>
      {label}
    </Button>
  );
}

export function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const secondStep = useLoginSecondStep();
  const passkeySignIn = usePasskeySignIn();
  /** The second step, once the password was right and two-factor sign-in is on. */
  const [challenge, setChallenge] = useState<SecondStepNeeded>();
  const [passkeyPending, setPasskeyPending] = useState(false);
  const { field, handleSubmit } = usePlainForm<LoginBody>({ email: '', password: '' }, loginRules);

  const signedIn = (result: SignedIn) => {
    startSession({ userId: result._id, token: result.token, account: result.account });
    toast.success(messages.login.success);
    void navigate('/dashboard', { replace: true });
  };

  const onSubmit = (values: LoginBody) =>
    login.mutate({ email: values.email.trim(), password: values.password }, {
      onSuccess: (result) => {
        if (result.secondStep) setChallenge(result);
        else signedIn(result);
      },
      onError: (error) => loginErrorToast(loginFailureMessage(error)),
    });

  const hydrated = useHydrated();

  if (challenge) {
    const startOver = () => setChallenge(undefined);
    const { challengeToken, passkey } = challenge;
    const answerWithPasskey = async () => {
      if (!passkey) return;
      setPasskeyPending(true);
      try {
        signedIn(await secondStep.mutateAsync({ challengeToken, passkey: await passkeyAssertion(passkey) }));
      } catch (error) {
        if (isBrowserPasskeyError(error)) loginErrorToast(passkeySignInText.cancelled);
        else {
          const refusal = secondStepRefusal(error, startOver);
          // A passkey's challenge serves one answer: a refused one starts the sign-in again.
          if (refusal) {
            startOver();
            loginErrorToast(refusal);
          }
        }
      } finally {
        setPasskeyPending(false);
      }
    };
    return (
      <AuthLayout>
        <PageTitle title={twoFactorText.secondStepTitle} />
        <AuthCard title={twoFactorText.secondStepTitle} subtitle={`Welcome back. Sign in to your ${PRODUCT_NAME} portal.`}>
          {challenge.secondStep === 'passkey' ? (
            <div className="space-y-5">
              <p className="text-sm text-slate-600">{passkeySignInText.secondStepHint}</p>
              <PasskeyButton label={passkeySignInText.useInSecondStep} pending={passkeyPending} onClick={() => void answerWithPasskey()} />
              <div className="flex justify-end text-sm">
                <button type="button" onClick={startOver} className="rounded font-medium text-slate-600 hover:text-slate-900 hover:underline">
                  {twoFactorText.startOver}
                </button>
              </div>
            </div>
          ) : (
            <>
              <SecondFactorForm
                onStartOver={startOver}
                onSubmit={async (code) => {
                  try {
                    signedIn(await secondStep.mutateAsync({ challengeToken, code }));
                    return undefined;
                  } catch (error) {
                    return secondStepRefusal(error, startOver);
                  }
                }}
              />
              {passkey && (
                <div className="mt-5">
                  <PasskeyButton label={passkeySignInText.useInSecondStep} pending={passkeyPending} onClick={() => void answerWithPasskey()} />
                </div>
              )}
            </>
          )}
        </AuthCard>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <PageTitle title={t.title} />
      <AuthCard title={t.title} subtitle={`Welcome back. Sign in to your ${PRODUCT_NAME} portal.`}>
        <form onSubmit={handleSubmit(onSubmit)} noValidate>
          <fieldset disabled={!hydrated} className="min-w-0 space-y-5">
            <FloatingField
              label={t.email}
              type="email"
              autoComplete="email"
              inputMode="email"
              {...field('email')}
            />
            <div>
              <PasswordField label={t.password} autoComplete="current-password" {...field('password')} />
              <div className="mt-2 flex justify-end">
                <Link to="/forgot-password" className="rounded text-sm font-medium text-brand-700 hover:text-brand-900 hover:underline">
                  {t.forgotPassword}
                </Link>
              </div>
            </div>
            <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
              {t.submit}
            </Button>
          </fieldset>
        </form>
        <div className="my-5 flex items-center gap-3 text-sm text-slate-500" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" />
          {passkeySignInText.or}
          <span className="h-px flex-1 bg-slate-200" />
        </div>
        <PasskeyButton
          label={passkeySignInText.signIn}
          pending={passkeySignIn.isPending}
          disabled={!hydrated}
          onClick={() => passkeySignIn.mutate(undefined, { onSuccess: signedIn, onError: passkeyFailureToast })}
        />
        <p className="mt-6 text-center text-sm text-slate-600">
          {t.newHere}{' '}
          <Link to="/signup" className="rounded font-semibold text-brand-700 hover:text-brand-900 hover:underline">
            {t.register}
          </Link>
        </p>
      </AuthCard>
    </AuthLayout>
  );
}

import { messages, PRODUCT_NAME, twoFactorText, uiText, type LoginBody } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { SecondFactorForm } from '../../../components/SecondFactorForm.tsx';
import { ApiError } from '../../../lib/http.ts';
import { usePlainForm, type FormRules } from '../../../lib/plain-form.ts';
import { startSession } from '../../../lib/session.ts';
import { useLogin, useLoginSecondStep, type SignedIn } from '../api.ts';
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

export function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const secondStep = useLoginSecondStep();
  /** The second step's challenge, once the password was right and two-factor sign-in is on. */
  const [challenge, setChallenge] = useState<string>();
  const { field, handleSubmit } = usePlainForm<LoginBody>({ email: '', password: '' }, loginRules);

  const signedIn = (result: SignedIn) => {
    startSession({ userId: result._id, token: result.token, account: result.account });
    toast.success(messages.login.success);
    void navigate('/dashboard', { replace: true });
  };

  const onSubmit = (values: LoginBody) =>
    login.mutate({ email: values.email.trim(), password: values.password }, {
      onSuccess: (result) => {
        if (result.secondStep) setChallenge(result.challengeToken);
        else signedIn(result);
      },
      onError: (error) => loginErrorToast(loginFailureMessage(error)),
    });

  const hydrated = useHydrated();

  if (challenge) {
    const startOver = () => setChallenge(undefined);
    return (
      <AuthLayout>
        <PageTitle title={twoFactorText.secondStepTitle} />
        <AuthCard title={twoFactorText.secondStepTitle} subtitle={`Welcome back. Sign in to your ${PRODUCT_NAME} portal.`}>
          <SecondFactorForm
            onStartOver={startOver}
            onSubmit={async (code) => {
              try {
                signedIn(await secondStep.mutateAsync({ challengeToken: challenge, code }));
                return undefined;
              } catch (error) {
                return secondStepRefusal(error, startOver);
              }
            }}
          />
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

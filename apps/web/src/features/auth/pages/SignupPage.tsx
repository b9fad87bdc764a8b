import { messages, PRODUCT_NAME, signupRules, uiText, type SignupFormValues } from '@kestrel/shared';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { ApiError } from '../../../lib/http.ts';
import { usePlainForm } from '../../../lib/plain-form.ts';
import { startSession } from '../../../lib/session.ts';
import { useRegister } from '../api.ts';
import { AuthCard, AuthLayout } from '../components/AuthLayout.tsx';
import { useHydrated } from '../../../lib/hydrated.ts';

const t = uiText.signup;

/** The register body names the phone `contactNumber`; the form calls it `phone`. */
const formFieldOf: Record<string, keyof SignupFormValues> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  contactNumber: 'phone',
  password: 'password',
};

/** Puts the server's answer where the user will see it: under the field and in a toast. */
function showSignupError(error: unknown, setError: (field: keyof SignupFormValues, message: string) => void): void {
  if (!(error instanceof ApiError)) {
    toast.error(messages.signup.failed);
    return;
  }
  if (error.code === 'email_taken') {
    setError('email', messages.signup.emailTaken);
    toast.error(messages.signup.emailTaken);
    return;
  }
  if (error.code === 'phone_taken') {
    setError('phone', messages.signup.phoneTaken);
    toast.error(messages.signup.phoneTaken);
    return;
  }
  if (error.code === 'invalid_response' && error.status >= 200 && error.status < 300) {
    toast.error(messages.signup.notSuccess);
    return;
  }
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    const formField = formFieldOf[field];
    if (formField) setError(formField, message);
  }
  toast.error(error.fromServer && error.message ? error.message : messages.signup.failed);
}

/*
 * Checked like the login page, without react-hook-form and zod: the sign-up page is one of the
 * first a person sees on a phone (issue 20). The rules are the shared `signupRules`, which the
 * register body's schema shares its patterns and bounds with.
 */
export function SignupPage() {
  const navigate = useNavigate();
  const registerUser = useRegister();
  const { field, handleSubmit, setError } = usePlainForm<SignupFormValues>(
    { firstName: '', lastName: '', email: '', phone: '', password: '', confirmPassword: '' },
    signupRules,
  );

  const onSubmit = (values: SignupFormValues) =>
    registerUser.mutate(
      {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        contactNumber: values.phone.trim(),
        password: values.password,
      },
      {
        onSuccess: ({ data, message }) => {
          startSession({ userId: data._id, token: data.token });
          // The account exists even when the verification mail failed: say so, and carry on.
          if (message === messages.signup.mailFailed) toast.error(message);
          else toast.success(message ?? messages.signup.success);
          void navigate('/dashboard', { replace: true });
        },
        onError: (error) => showSignupError(error, setError),
      },
    );

  const hydrated = useHydrated();

  return (
    <AuthLayout>
      <PageTitle title={t.title} />
      <AuthCard title={t.title} subtitle={`Open your ${PRODUCT_NAME} wallet in a minute.`}>
        <form onSubmit={handleSubmit(onSubmit)} noValidate>
          <fieldset disabled={!hydrated} className="min-w-0 space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <FloatingField label={t.firstName} autoComplete="given-name" {...field('firstName')} />
              <FloatingField label={t.lastName} autoComplete="family-name" {...field('lastName')} />
            </div>
            <FloatingField label={t.email} type="email" inputMode="email" autoComplete="email" {...field('email')} />
            <FloatingField label={t.phone} type="tel" inputMode="tel" autoComplete="tel" {...field('phone')} />
            <PasswordField label={t.password} autoComplete="new-password" {...field('password')} />
            <PasswordField label={t.confirmPassword} autoComplete="new-password" {...field('confirmPassword')} />
            <Button type="submit" size="lg" className="w-full" loading={registerUser.isPending}>
              {t.submit}
            </Button>
          </fieldset>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          {t.haveAccount}{' '}
          <Link to="/login" className="rounded font-semibold text-brand-700 hover:text-brand-900 hover:underline">
            {t.login}
          </Link>
        </p>
      </AuthCard>
    </AuthLayout>
  );
}

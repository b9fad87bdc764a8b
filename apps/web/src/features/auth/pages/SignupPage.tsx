import { messages, PRODUCT_NAME, uiText, type SignupForm } from '@kestrel/shared';
import { useForm, type UseFormSetError } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { ApiError } from '../../../lib/http.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { startSession } from '../../../lib/session.ts';
import { useRegister } from '../api.ts';
import { AuthCard, AuthLayout } from '../components/AuthLayout.tsx';
import { useHydrated } from '../../../lib/hydrated.ts';

const t = uiText.signup;

/** The contracts' signup form rules, with zod, fetched on the form's first focus or submit (not with the page). */
const signupResolver = lazyZodResolver<SignupForm>(async () => (await import('@kestrel/shared/contracts/auth')).signupForm);

/** The register body names the phone `contactNumber`; the form calls it `phone`. */
const formFieldOf: Record<string, keyof SignupForm> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  contactNumber: 'phone',
  password: 'password',
};

/** Puts the server's answer where the user will see it: under the field and in a toast. */
function showSignupError(error: unknown, setError: UseFormSetError<SignupForm>): void {
  if (!(error instanceof ApiError)) {
    toast.error(messages.signup.failed);
    return;
  }
  if (error.code === 'email_taken') {
    setError('email', { message: messages.signup.emailTaken });
    toast.error(messages.signup.emailTaken);
    return;
  }
  if (error.code === 'phone_taken') {
    setError('phone', { message: messages.signup.phoneTaken });
    toast.error(messages.signup.phoneTaken);
    return;
  }
  if (error.code === 'invalid_response' && error.status >= 200 && error.status < 300) {
    toast.error(messages.signup.notSuccess);
    return;
  }
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    const formField = formFieldOf[field];
    if (formField) setError(formField, { message });
  }
  toast.error(error.fromServer && error.message ? error.message : messages.signup.failed);
}

export function SignupPage() {
  const navigate = useNavigate();
  const registerUser = useRegister();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: signupResolver,
    defaultValues: { firstName: '', lastName: '', email: '', phone: '', password: '', confirmPassword: '' },
  });

  const onSubmit = (values: SignupForm) =>
    registerUser.mutate(
      { firstName: values.firstName, lastName: values.lastName, email: values.email, contactNumber: values.phone, password: values.password },
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
        <form onSubmit={handleSubmit(onSubmit)} onFocus={signupResolver.preload} noValidate>
          <fieldset disabled={!hydrated} className="min-w-0 space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <FloatingField label={t.firstName} autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
              <FloatingField label={t.lastName} autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
            </div>
            <FloatingField label={t.email} type="email" inputMode="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
            <FloatingField label={t.phone} type="tel" inputMode="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
            <PasswordField label={t.password} autoComplete="new-password" error={errors.password?.message} {...register('password')} />
            <PasswordField
              label={t.confirmPassword}
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
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

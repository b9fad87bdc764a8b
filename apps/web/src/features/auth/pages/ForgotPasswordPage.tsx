import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordBody, messages, uiText, type ForgotPasswordBody } from '@kestrel/shared';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useForgotPassword } from '../api.ts';
import { AuthCard, AuthLayout } from '../components/AuthLayout.tsx';

const t = uiText.passwordReset;

const backLink = (
  <p className="mt-6 text-center text-sm text-slate-600">
    <Link to="/login" className="rounded font-semibold text-brand-700 hover:text-brand-900 hover:underline">
      {t.backToLogin}
    </Link>
  </p>
);

/**
 * /forgot-password (issue 25; the login page's Forgot Password link). One "Email" field; the
 * answer is the same whether or not the address has an account, so the page shows the
 * server's one sentence either way.
 */
export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgotPasswordBody), defaultValues: { email: '' } });

  const onSubmit = (values: ForgotPasswordBody) =>
    forgot.mutate(values, { onError: (error) => toast.error(errorMessage(error, messages.passwordReset.failed)) });

  return (
    <AuthLayout>
      <PageTitle title={t.forgotTitle} />
      <AuthCard title={t.forgotTitle} subtitle={forgot.isSuccess ? undefined : t.forgotIntro}>
        {forgot.isSuccess ? (
          <p role="status" className="rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900">
            {forgot.data.message ?? messages.passwordReset.requested}
          </p>
        ) : (
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
            <FloatingField label={t.email} type="email" inputMode="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
            <Button type="submit" size="lg" className="w-full" loading={forgot.isPending}>
              {t.sendLink}
            </Button>
          </form>
        )}
        {backLink}
      </AuthCard>
    </AuthLayout>
  );
}

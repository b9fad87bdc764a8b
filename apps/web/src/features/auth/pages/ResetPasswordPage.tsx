import { zodResolver } from '@hookform/resolvers/zod';
import { messages, resetPasswordForm, uiText, type ResetPasswordFormValues } from '@kestrel/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { PasswordField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { endSession } from '../../../lib/session.ts';
import { useResetPassword } from '../api.ts';
import { AuthCard, AuthLayout } from '../components/AuthLayout.tsx';

const t = uiText.passwordReset;

/**
 * /reset-password?token=… (the link of the reset mail): the sign-up's password fields, rules
 * and messages. On success every session of the account has ended on the server, so this
 * browser forgets its own too and goes to /login.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const resetPassword = useResetPassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(resetPasswordForm), defaultValues: { password: '', confirmPassword: '' } });

  const onSubmit = (values: ResetPasswordFormValues) =>
    resetPassword.mutate(
      { token, ...values },
      {
        onSuccess: ({ message }) => {
          endSession();
          queryClient.clear();
          toast.success(message ?? messages.passwordReset.done);
          void navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            if (error.fields?.password) setError('password', { message: error.fields.password });
            if (error.fields?.confirmPassword) setError('confirmPassword', { message: error.fields.confirmPassword });
          }
          // A refused link is said in the card itself (below); a toast would repeat it.
          if (!(error instanceof ApiError && error.code === 'password_reset_link_invalid')) toast.error(errorMessage(error, messages.passwordReset.failed));
        },
      },
    );

  // A spent, expired or unknown link: say so where the form was, with the way to a new one.
  const linkRefused = resetPassword.error instanceof ApiError && resetPassword.error.code === 'password_reset_link_invalid';
  const linkMissing = token.length === 0;

  return (
    <AuthLayout>
      <PageTitle title={t.resetTitle} />
      <AuthCard title={t.resetTitle}>
        {linkRefused || linkMissing ? (
          <div className="space-y-4">
            <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-900">
              {messages.passwordReset.linkInvalid}
            </p>
            <Link to="/forgot-password" className="inline-block rounded font-semibold text-brand-700 hover:text-brand-900 hover:underline">
              {t.askAgain}
            </Link>
          </div>
        ) : (
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
            <PasswordField label={t.password} autoComplete="new-password" error={errors.password?.message} {...register('password')} />
            <PasswordField label={t.confirmPassword} autoComplete="new-password" error={errors.confirmPassword?.message} {...register('confirmPassword')} />
            <Button type="submit" size="lg" className="w-full" loading={resetPassword.isPending}>
              {t.submit}
            </Button>
          </form>
        )}
        <p className="mt-6 text-center text-sm text-slate-600">
          <Link to="/login" className="rounded font-semibold text-brand-700 hover:text-brand-900 hover:underline">
            {t.backToLogin}
          </Link>
        </p>
      </AuthCard>
    </AuthLayout>
  );
}

import { messages, uiText } from '@kestrel/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { MailIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useSendVerificationMail, userKeys, type UserProfile } from '../../auth/api.ts';
import { GateFrame } from './GateFrame.tsx';

/** Portal gate: the signed-in user has not verified their e-mail yet. */
export function VerifyEmailNotice({ user }: { user: UserProfile }) {
  const resend = useSendVerificationMail();
  const queryClient = useQueryClient();

  // The link is usually opened in another tab: coming back here re-reads the user, so the
  // portal opens as soon as the e-mail is verified.
  useEffect(() => {
    const recheck = () => {
      if (document.visibilityState === 'visible') void queryClient.invalidateQueries({ queryKey: userKeys.all });
    };
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, [queryClient]);
  const onResend = () =>
    resend.mutate(
      { email: user.email },
      {
        onSuccess: () => toast.success(messages.verification.sent),
        onError: (error) => toast.error(errorMessage(error, messages.verification.notSent)),
      },
    );

  return (
    <GateFrame>
      <PageTitle title={messages.portal.verifyEmailTitle} />
      <StatusCard
        icon={<MailIcon />}
        title={messages.portal.verifyEmailTitle}
        actions={
          <Button onClick={onResend} loading={resend.isPending} size="lg">
            {uiText.verification.resendMail}
          </Button>
        }
      >
        <p>
          We sent a verification link to <strong className="font-semibold break-all text-slate-900">{user.email}</strong>. Open it to
          activate your portal.
        </p>
        <p className="mt-2 text-sm">No mail? Check your spam folder, or send a new link.</p>
      </StatusCard>
    </GateFrame>
  );
}

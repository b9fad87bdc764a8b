import { messages, uiText, verifyEmailBody } from '@kestrel/shared';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/Button.tsx';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { AlertCircleIcon, CheckCircleIcon, MailIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { isSignedIn, useSession } from '../../../lib/session.ts';
import { useVerifyEmail } from '../api.ts';

const t = uiText.verification;

function failureText(error: unknown): string {
  // A bad, spent or expired token is a 400; anything else (e.g. a 500) keeps the server's words.
  if (error instanceof ApiError && error.status === 400) return messages.verification.linkInvalid;
  return errorMessage(error, messages.verification.linkInvalid);
}

/** /verify-email?token=...: the link of the verification mail. Public: works signed in or not. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const tokenLooksValid = verifyEmailBody.safeParse({ token }).success;
  const signedIn = isSignedIn(useSession());
  const { mutate, isSuccess, isError, error } = useVerifyEmail();

  // A token can be spent once; the ref keeps React's development double-effect from sending it twice.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !tokenLooksValid) return;
    sent.current = true;
    mutate({ token });
  }, [mutate, token, tokenLooksValid]);

  const next = signedIn ? { to: '/dashboard', label: t.continueToDashboard } : { to: '/login', label: t.continueToLogin };
  const continueLink = (
    <Link to={next.to} className={buttonClasses('primary', 'lg')}>
      {next.label}
    </Link>
  );

  let body: ReactNode;
  if (!tokenLooksValid || isError) {
    body = (
      <StatusCard icon={<AlertCircleIcon />} tone="danger" title={t.failedTitle} actions={continueLink}>
        <p role="alert">{tokenLooksValid ? failureText(error) : messages.verification.linkInvalid}</p>
      </StatusCard>
    );
  } else if (isSuccess) {
    body = (
      <StatusCard icon={<CheckCircleIcon />} tone="success" title={t.verifiedTitle} actions={continueLink}>
        <p role="status">{messages.verification.verified}</p>
      </StatusCard>
    );
  } else {
    body = (
      <StatusCard icon={<MailIcon />} title={t.title}>
        <p role="status" className="inline-flex items-center gap-2">
          <Spinner className="size-4 text-brand-700" />
          {t.checking}
        </p>
      </StatusCard>
    );
  }

  return (
    <CenteredLayout>
      <PageTitle title={t.title} />
      {body}
    </CenteredLayout>
  );
}

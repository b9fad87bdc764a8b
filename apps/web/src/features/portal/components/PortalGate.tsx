import { useEffect } from 'react';
import { Button } from '../../../components/Button.tsx';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { AlertCircleIcon } from '../../../components/icons.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { setActiveAccount, useSession } from '../../../lib/session.ts';
import { CompleteAccountGate } from './CompleteAccountGate.tsx';
import { accountToActivate } from '../../accounts/active-account.ts';
import { useCurrentUser } from '../../auth/api.ts';
import { PortalUserContext } from '../../../lib/portal-user.ts';
import { LogoutLink } from './LogoutLink.tsx';
import { PortalShell } from './PortalShell.tsx';
import { VerifyEmailNotice } from './VerifyEmailNotice.tsx';

/**
 * Wraps every protected page: a spinner while the user loads, then 'Please Verify Your
 * Email' for an unverified e-mail, the complete-account form for a verified user without
 * an account, and otherwise the shell with the page.
 */
export function PortalGate() {
  const session = useSession();
  const user = useCurrentUser();

  const toActivate = user.data ? accountToActivate(user.data, session) : undefined;
  useEffect(() => {
    if (toActivate) setActiveAccount(toActivate);
  }, [toActivate]);

  // A failed background refetch keeps the data it had, so data wins over the error state.
  const profile = user.data;
  if (!profile) {
    if (!user.isError) return <FullPageSpinner />;
    // A rejected token signs the user out (RootLayout); show nothing while that happens.
    if (user.error instanceof ApiError && user.error.status === 401) return <FullPageSpinner />;
    return (
      <CenteredLayout actions={<LogoutLink />}>
        <StatusCard
          icon={<AlertCircleIcon />}
          tone="danger"
          title="We could not load your portal"
          actions={
            <Button size="lg" onClick={() => void user.refetch()} loading={user.isFetching}>
              Try again
            </Button>
          }
        >
          <p role="alert">{errorMessage(user.error, 'The server could not be reached. Check your connection and try again.')}</p>
        </StatusCard>
      </CenteredLayout>
    );
  }

  if (!profile.isEmailVerified) return <VerifyEmailNotice user={profile} />;
  if (!profile.isAccountHolder) return <CompleteAccountGate user={profile} />;
  return (
    <PortalUserContext value={profile}>
      <PortalShell />
    </PortalUserContext>
  );
}

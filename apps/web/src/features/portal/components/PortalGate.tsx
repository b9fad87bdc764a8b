import { lazy, memo, Suspense, useDeferredValue, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserProfile } from '@kestrel/shared';
import { Button } from '../../../components/Button.tsx';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { AlertCircleIcon } from '../../../components/icons.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { setActiveAccount, useSession } from '../../../lib/session.ts';
import { accountToActivate } from '../../accounts/active-account.ts';
import { useCurrentUser } from '../../auth/api.ts';
import { PortalUserContext } from '../../../lib/portal-user.ts';
import { DashboardSkeleton } from '../../dashboard/components/DashboardTop.tsx';
import { isDashboardPath } from '../../dashboard/dashboard-path.ts';
import { LogoutLink } from './LogoutLink.tsx';
import { PortalShell } from './PortalShell.tsx';

// Shown once in a user's life, and they carry the forms (react-hook-form, zod): chunks of their
// own, so the dashboard of every other visit does not wait for them.
const VerifyEmailNotice = lazy(async () => ({ default: (await import('./VerifyEmailNotice.tsx')).VerifyEmailNotice }));
const CompleteAccountGate = lazy(async () => ({ default: (await import('./CompleteAccountGate.tsx')).CompleteAccountGate }));

/**
 * The shell with the route's page, or, before the user's profile has come, with the dashboard's
 * skeleton: what dashboard.html paints (the build prerenders this with no user, build/prerender.ts),
 * so React's first render draws the same, and the page's arrival keeps the header and the
 * navigation as they are. Memoized: the gate re-renders on every navigation (it reads the
 * location), the shell need not.
 */
export const PortalFrame = memo(function PortalFrame({ user }: { user: UserProfile | null }) {
  return (
    <PortalUserContext value={user}>
      <PortalShell>{user ? undefined : <DashboardSkeleton />}</PortalShell>
    </PortalUserContext>
  );
});

/**
 * Wraps every protected page: a spinner while the user loads (on the dashboard, its skeleton),
 * then 'Please Verify Your Email' for an unverified e-mail, the complete-account form for a
 * verified user without an account, the operator console for an operator, and otherwise the
 * shell with the page.
 */
export function PortalGate() {
  const { pathname } = useLocation();
  const session = useSession();
  const user = useCurrentUser();

  const toActivate = user.data ? accountToActivate(user.data, session) : undefined;
  useEffect(() => {
    if (toActivate) setActiveAccount(toActivate);
  }, [toActivate]);

  // A failed background refetch keeps the data it had, so data wins over the error state.
  // The shell and its page are a visit's biggest render: deferred (from the first render on,
  // null until then), React draws them in a transition, in slices that leave the browser free
  // in between, not in one long task.
  const profile = useDeferredValue(user.data ?? null, null);
  if (!profile) {
    // A rejected token signs the user out (RootLayout); show nothing new while that happens.
    // The dashboard's loading state is its skeleton, the page dashboard.html painted.
    const waiting = !user.isError || (user.error instanceof ApiError && user.error.status === 401);
    if (waiting) return isDashboardPath(pathname) ? <PortalFrame user={null} /> : <FullPageSpinner />;
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

  // Operators never hold a wallet (separation of duties): their portal is the console, not the
  // complete-account form a user without an account would get.
  if (profile.isOperator) return <Navigate to="/ops" replace />;
  if (!profile.isEmailVerified || !profile.isAccountHolder)
    return (
      <Suspense fallback={<FullPageSpinner />}>
        {profile.isEmailVerified ? <CompleteAccountGate user={profile} /> : <VerifyEmailNotice user={profile} />}
      </Suspense>
    );
  return <PortalFrame user={profile} />;
}

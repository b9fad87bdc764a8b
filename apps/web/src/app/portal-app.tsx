import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { userQuery } from '../features/auth/api.ts';
import { isDashboardPath } from '../features/dashboard/dashboard-path.ts';
import { closeEarlyFetches } from '../lib/early-fetch.ts';
import { getSession, isSignedIn } from '../lib/session.ts';
import { FlashToast } from './flash-toast.tsx';
import { AppProviders } from './providers.tsx';
import { queryClient } from './query-client.ts';
import { router } from './router.ts';
import { routerReady } from './router-ready.ts';

/** The portal, the sign-in pages and the operator console: every route of routes.tsx. */
export async function startPortal(container: HTMLElement): Promise<void> {
  // A signed-in user's profile opens every portal page (the portal gate waits for it), and the
  // dashboard shows the active account's counters first: both are asked for now, while the router
  // downloads the page's chunks, not after them. The entry started both reads already
  // (portal-early-reads.ts); these take their answers.
  // From here the app makes its own reads: one the entry has not started yet never will be.
  closeEarlyFetches();
  const session = getSession();
  const signedIn = isSignedIn(session);
  if (signedIn) {
    void queryClient.prefetchQuery(userQuery(session.userId));
    if (session.accountNumber && isDashboardPath(window.location.pathname)) {
      const { accountNumber } = session;
      void import('../features/accounts/api.ts').then(({ accountCountersQuery }) => queryClient.prefetchQuery(accountCountersQuery(accountNumber)));
    }
  }
  const app = (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
        <FlashToast />
      </AppProviders>
    </StrictMode>
  );
  // A prerendered page (login, signup: build/prerender.ts) is already on screen as a visitor
  // sees it: React takes over its markup once the page's chunks are in, in a transition, so
  // the work yields to the browser. A signed-in visitor is sent on, so that page is rendered afresh.
  if (container.dataset.prerendered && !signedIn) {
    await routerReady(router);
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  // The dashboard's skeleton (dashboard.html) is on screen: React's first render draws the same
  // (the portal gate's loading state), so it waits for the page's chunks, as a hydration does,
  // rather than blanking the screen for the router's first moments; in a transition, in slices.
  if (container.dataset.skeleton) {
    await routerReady(router);
    startTransition(() => {
      createRoot(container).render(app);
    });
    return;
  }
  createRoot(container).render(app);
}

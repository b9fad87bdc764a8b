import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { userQuery } from '../features/auth/api.ts';
import { getSession, isSignedIn } from '../lib/session.ts';
import { AppProviders } from './providers.tsx';
import { queryClient } from './query-client.ts';
import { router } from './router.ts';

/** The portal, the sign-in pages and the operator console: every route of routes.tsx. */
export function startPortal(container: HTMLElement): void {
  // A signed-in user's profile opens every portal page (the portal gate waits for it): ask for
  // it now, while the router downloads the page's chunks, not after them.
  const session = getSession();
  if (isSignedIn(session)) void queryClient.prefetchQuery(userQuery(session.userId));
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

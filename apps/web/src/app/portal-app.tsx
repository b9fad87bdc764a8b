import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './providers.tsx';
import { router } from './router.ts';

/** The portal, the sign-in pages and the operator console: every route of routes.tsx. */
export function startPortal(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

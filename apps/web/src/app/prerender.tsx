import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { PortalFrame } from '../features/portal/components/PortalGate.tsx';
import { FlashToast } from './flash-toast.tsx';
import { AppProviders } from './providers.tsx';
import { routerReady } from './router-ready.ts';
import { routes } from './routes.tsx';

/** What build/prerender.ts writes into a page's #root, and its <title>. */
export interface Prerendered {
  html: string;
  title: string | undefined;
}

/** The routes at `path`, with the providers the portal app renders them in (portal-app.tsx), as HTML. */
async function renderRoutes(routeTable: RouteObject[], path: string): Promise<Prerendered> {
  const router = createMemoryRouter(routeTable, { initialEntries: [path] });
  await routerReady(router);
  let html = renderToString(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
        <FlashToast />
      </AppProviders>
    </StrictMode>,
  );
  router.dispose();
  // The page's <title> belongs in <head> (React hoists it there on the client too).
  const title = /<title>([^<]*)<\/title>/.exec(html);
  if (title) html = html.replace(title[0], '');
  return { html, title: title?.[1] };
}

/**
 * The HTML of a signed-out page as a visitor first sees it, rendered at build time
 * (build/prerender.ts) from the same routes and providers the portal app hydrates
 * (portal-app.tsx): the page paints before any script has downloaded. Only pages that need
 * no data and no session may be prerendered.
 */
export function prerenderPage(path: string): Promise<Prerendered> {
  return renderRoutes(routes, path);
}

/**
 * The HTML of the dashboard before anything of the user's has come: the portal's shell with the
 * dashboard's title and its counters loading (PortalFrame with no user), which the portal gate
 * also renders while the profile loads. dashboard.html paints it, so the page's heading (its
 * largest text) is on screen before any script has run; the portal app renders afresh over it
 * (a session is not something build-time HTML can hydrate).
 */
export function prerenderSkeleton(path: string): Promise<Prerendered> {
  return renderRoutes([{ path, element: <PortalFrame user={null} /> }], path);
}

import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { FlashToast } from './flash-toast.tsx';
import { AppProviders } from './providers.tsx';
import { routerReady } from './router-ready.ts';
import { routes } from './routes.tsx';

/**
 * The HTML of a signed-out page as a visitor first sees it, rendered at build time
 * (build/prerender.ts) from the same routes and providers the portal app hydrates
 * (portal-app.tsx): the page paints before any script has downloaded. Only pages that need
 * no data and no session may be prerendered.
 */
export async function prerenderPage(path: string): Promise<{ html: string; title: string | undefined }> {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
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

import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { LoadedCheckoutPage } from './checkout-pages.ts';
import { FIRST_READ_ELEMENT_ID } from './first-read.ts';
import { AppProviders } from './providers.tsx';
import { queryClient } from './query-client.ts';

/** The public GET's answer the server rendered the page from (app/checkout-ssr.tsx), as a Response. */
function embeddedAnswer(): Response | undefined {
  const element = document.getElementById(FIRST_READ_ELEMENT_ID);
  const status = Number(element?.dataset.status);
  return element && status ? new Response(element.textContent, { status, headers: { 'content-type': 'application/json' } }) : undefined;
}

/**
 * The checkout app: one public pay page with the query client and the toaster, and no router,
 * portal or session watcher (the page works with no portal session). A page the server
 * rendered is hydrated from the answer it was rendered from (no second read, no spinner);
 * otherwise (no server rendering) the page renders afresh.
 */
export async function startCheckout(container: HTMLElement, page: Promise<LoadedCheckoutPage>, params: Record<string, string>): Promise<void> {
  const { Page, firstQuery } = await page;
  const tree = (
    <StrictMode>
      <AppProviders>
        <Page {...params} />
      </AppProviders>
    </StrictMode>
  );
  const answer = embeddedAnswer();
  if (answer) {
    // Resolves from the answer in hand, without the network: the cache then holds what the server rendered.
    await firstQuery(queryClient, params, answer);
    // The page is already on screen: React takes its markup over in a transition, yielding to the browser.
    startTransition(() => {
      hydrateRoot(container, tree);
    });
  } else {
    createRoot(container).render(tree);
  }
}

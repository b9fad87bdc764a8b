import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { matchCheckoutPage } from './checkout-pages.ts';
import type { FirstReadAnswer } from './first-read.ts';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';

/*
 * The server renderer of the public pay pages. The web build compiles this file for Node
 * (`apps/web/dist-ssr/checkout-ssr.js`, build/ssr.ts); the API loads it at start when present
 * (apps/api/src/http/checkout-ssr.ts) and renders a pay page's HTML from the page's public GET,
 * so the store, the product and the amount paint with the HTML. The browser's checkout app
 * hydrates that markup from the same answer (checkout-app.tsx): the same components, props
 * and data, so the markup matches.
 */

/** The public API path a pay page reads first, or undefined when the path is not a pay page. */
export function firstReadOf(pathname: string): string | undefined {
  const match = matchCheckoutPage(pathname);
  return match ? match.page.firstRead(match.params) : undefined;
}

/** A pay page's markup (for #root) and title, rendered from its first read's answer. */
export async function renderCheckoutPage(pathname: string, answer: FirstReadAnswer): Promise<{ html: string; title: string | undefined } | undefined> {
  const match = matchCheckoutPage(pathname);
  if (!match) return undefined;
  const { Page, firstQuery } = await match.page.load();
  // A client per request: one visitor's payment never sits in another's cache.
  const client = createQueryClient();
  try {
    const response = new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
    await firstQuery(client, match.params, response);
    let html = renderToString(
      <StrictMode>
        <AppProviders client={client}>
          <Page {...match.params} />
        </AppProviders>
      </StrictMode>,
    );
    // The page's <title> belongs in <head> (React hoists it there on the client too).
    const title = /<title>([^<]*)<\/title>/.exec(html);
    if (title) html = html.replace(title[0], '');
    return { html, title: title?.[1] };
  } finally {
    client.clear();
  }
}

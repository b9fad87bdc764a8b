import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CheckoutPageComponent } from './checkout-pages.ts';
import { AppProviders } from './providers.tsx';

/**
 * The checkout app: one public pay page with the query client and the toaster, and no router,
 * portal or session watcher (the page works with no portal session).
 */
export async function startCheckout(container: HTMLElement, page: Promise<CheckoutPageComponent>, params: Record<string, string>): Promise<void> {
  const Page = await page;
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <Page {...params} />
      </AppProviders>
    </StrictMode>,
  );
}

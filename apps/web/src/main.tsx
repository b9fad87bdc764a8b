import { matchCheckoutPage } from './app/checkout-pages.ts';
import { FIRST_READ_ELEMENT_ID } from './app/first-read.ts';
import { startEarlyFetch } from './lib/early-fetch.ts';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The entry decides which app to download: a visitor opening a pay page gets the small
// checkout app (no router, no portal); every other path gets the portal's router.
const checkout = matchCheckoutPage(window.location.pathname);
if (checkout) {
  // The page's data and chunk are fetched alongside the app's, not after it; a page the server
  // rendered carries its data already (app/first-read.ts).
  if (!document.getElementById(FIRST_READ_ELEMENT_ID)) startEarlyFetch(checkout.page.firstRead(checkout.params));
  const page = checkout.page.load();
  void import('./app/checkout-app.tsx').then((app) => app.startCheckout(container, page, checkout.params));
} else {
  // A signed-in visit's first reads go out before the portal's chunks have all come: this small
  // chunk of its own (dashboard.html preloads it; the pay pages' entry stays as small as it was).
  void import('./app/portal-early-reads.ts').then((reads) => reads.startPortalEarlyReads(window.location.pathname));
  void import('./app/portal-app.tsx').then((app) => app.startPortal(container));
}

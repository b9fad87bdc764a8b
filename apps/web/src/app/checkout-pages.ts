import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/** The names of a path pattern's `:parameters`: '/web-pay/:urlId' gives 'urlId'. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** A page of a visitor who pays: rendered with its URL parameters as props. */
export type CheckoutPageComponent = ComponentType<Record<string, string>>;

/**
 * Puts the page's first read into a query client from the public GET's answer in hand, under
 * the key the page's own hook reads: the server renders the page from it and the browser
 * hydrates from the same answer (app/checkout-ssr.tsx, app/checkout-app.tsx).
 */
export type FirstQuery = (client: QueryClient, params: Record<string, string>, answer: Response) => Promise<void>;

/** What a pay page's module gives the apps: the component and its first read. */
export interface LoadedCheckoutPage {
  Page: CheckoutPageComponent;
  firstQuery: FirstQuery;
}

export interface CheckoutPage {
  /** The path pattern, `:name` for one segment, as in the route table. */
  path: string;
  /** Paths the pattern would match that belong to the portal (its static pages). */
  except: readonly string[];
  load: () => Promise<LoadedCheckoutPage>;
  /**
   * The public API path the page reads first, for its parameters: the entry starts that read
   * at once, and the server answers it into the page it renders.
   */
  firstRead: (params: Record<string, string>) => string;
}

function checkoutPage<Path extends string, Module>(
  path: Path,
  load: () => Promise<Module>,
  pick: (module: Module) => {
    Page: ComponentType<Record<ParamNames<Path>, string>>;
    firstQuery: (client: QueryClient, params: Record<ParamNames<Path>, string>, answer: Response) => Promise<void>;
  },
  firstRead: (params: Record<ParamNames<Path>, string>) => string,
  except: readonly string[] = [],
): CheckoutPage {
  // The page's props are exactly its path's parameters (checked above); the matcher supplies them.
  return {
    path,
    except,
    load: async () => pick(await load()) as LoadedCheckoutPage,
    firstRead: firstRead as (params: Record<string, string>) => string,
  };
}

/*
 * The public pay pages: a visitor who pays a store or a payment link, with no portal
 * session. Opened from outside (the usual case), main.tsx starts the small checkout app
 * (app/checkout-app.tsx: React DOM, the query client, the toaster and the page, no router)
 * instead of the portal, so the visitor downloads none of the portal's code. routes.tsx lists
 * the same pages, so a client-side navigation to one works too. One line per page.
 */
export const checkoutPages: CheckoutPage[] = [
  checkoutPage(
    '/web-pay/:urlId',
    () => import('../features/checkout/pages/CheckoutPage.tsx'),
    (page) => ({ Page: page.CheckoutPage, firstQuery: (client, { urlId }, answer) => client.prefetchQuery(page.checkoutQuery(urlId, answer)) }),
    // The same path as checkoutQuery's read (features/checkout/api.ts).
    ({ urlId }) => `/v1/payment/${encodeURIComponent(urlId)}`,
  ),
  // '/payment-request/new' is the owner's form in the portal, not a link id.
  checkoutPage(
    '/payment-request/:pRequestURLId',
    () => import('../features/checkout/pages/PaymentRequestPayPage.tsx'),
    (page) => ({ Page: page.PaymentRequestPayPage, firstQuery: (client, { pRequestURLId }, answer) => client.prefetchQuery(page.paymentRequestLinkQuery(pRequestURLId, answer)) }),
    // The same path as paymentRequestLinkQuery's read (features/checkout/payment-request-api.ts).
    ({ pRequestURLId }) => `/v1/payment-request/link/${encodeURIComponent(pRequestURLId)}`,
    ['/payment-request/new'],
  ),
];

export interface CheckoutMatch {
  page: CheckoutPage;
  params: Record<string, string>;
}

/** The checkout page a path opens, with its parameters (decoded as React Router does), if any. */
export function matchCheckoutPage(pathname: string): CheckoutMatch | undefined {
  const path = pathname.replace(/\/+$/, '');
  const segments = path.split('/');
  for (const page of checkoutPages) {
    if (page.except.some((portalPath) => portalPath.toLowerCase() === path.toLowerCase())) continue;
    const pattern = page.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (!part.startsWith(':')) return part.toLowerCase() === segment.toLowerCase();
      if (!segment) return false;
      params[part.slice(1)] = decodeSegment(segment);
      return true;
    });
    if (matches) return { page, params };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { checkoutPages, matchCheckoutPage } from './checkout-pages.ts';
import { routes } from './routes.tsx';

/** Every path pattern of the route table, parents joined to children. */
function routePaths(table: RouteObject[], parent = ''): string[] {
  return table.flatMap((route) => {
    const own = route.path === undefined ? parent : route.path.startsWith('/') ? route.path : `${parent.replace(/\/$/, '')}/${route.path}`;
    return [...(route.path === undefined ? [] : [own]), ...routePaths(route.children ?? [], own)];
  });
}

/** A concrete address for a pattern: each `:param` a made-up id, `*` two segments. */
const concrete = (pattern: string) => pattern.replace(/:\w+/g, 'x7Yq2').replace(/\*$/, 'some/where');

/** What React Router itself opens for a path: the checkout page's params, or undefined for any other page. */
function routerCheckout(pathname: string): Record<string, string> | undefined {
  const matches = matchRoutes(routes, pathname) ?? [];
  const deepest = matches.at(-1);
  if (!deepest || !checkoutPages.some((page) => page.path === deepest.route.path)) return undefined;
  return deepest.params as Record<string, string>;
}

describe('the entry sends a path to the checkout app exactly when the router would open a pay page', () => {
  const samples = [
    ...routePaths(routes).map(concrete),
    ...checkoutPages.flatMap((page) => page.except),
    '/web-pay/abc123',
    '/web-pay/abc123/',
    '/WEB-PAY/abc123',
    '/web-pay/a%20b',
    '/web-pay',
    '/web-pay/',
    '/web-pay/abc/def',
    '/payment-request/abc123',
    '/payment-request/new',
    '/payment-request/details/abc123',
    '/payment-request',
    '/',
    '/login',
    '/dashboard',
  ];

  it.each(samples)('%s', (pathname) => {
    expect(matchCheckoutPage(pathname)?.params).toEqual(routerCheckout(pathname));
  });

  it('opens the hosted checkout with its urlId', () => {
    expect(matchCheckoutPage('/web-pay/pay_123')?.params).toEqual({ urlId: 'pay_123' });
  });
});

import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { api, testConfig, testDatabase } from '../../test/harness.ts';
import { createUser } from '../../test/factories.ts';
import { buildApp } from '../app.ts';
import { PUBLIC_ROUTES, requireOperator, requireUser, routeProtection } from './guards.ts';

/** Every route of the whole app (outside production, so the development mailbox is included). */
async function routeTable() {
  const handle = await testDatabase();
  const config = testConfig();
  const routes: RouteOptions[] = [];
  const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web'), onRoute: (route) => routes.push(route) });
  return { app, routes };
}

const describeRoute = (route: RouteOptions) => `${[route.method].flat().join(',')} ${route.url}`;

describe('the route table', () => {
  it('has no route that is neither guarded nor on the public list', async () => {
    const { app, routes } = await routeTable();
    try {
      const unguarded = routes.filter((route) => routeProtection(route) === 'unguarded').map(describeRoute);
      expect(unguarded).toEqual([]);
      // The walk saw the whole API, not an empty table.
      expect(routes.length).toBeGreaterThan(20);
    } finally {
      await app.close();
    }
  });

  it('guards every /v1/operator route with requireOperator', async () => {
    const { app, routes } = await routeTable();
    try {
      const operatorRoutes = routes.filter((route) => route.url.startsWith('/v1/operator'));
      // The walk saw the console's routes, not an empty list.
      expect(operatorRoutes.length).toBeGreaterThan(10);
      expect(operatorRoutes.filter((route) => routeProtection(route) !== 'operator').map(describeRoute)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('names the guard of each protected route', async () => {
    const { app, routes } = await routeTable();
    try {
      const kind = (method: string, url: string) => {
        const route = routes.find((candidate) => [candidate.method].flat().includes(method as never) && candidate.url === url);
        if (!route) throw new Error(`no route ${method} ${url}`);
        return routeProtection(route);
      };
      expect(kind('POST', '/v1/account/transfer_balance')).toBe('user');
      expect(kind('GET', '/v1/account/:key')).toBe('user');
      expect(kind('GET', '/v1/operator/identity-reviews')).toBe('operator');
      expect(kind('POST', '/v1/operator/accounts/:accountId/identity/verify')).toBe('operator');
      expect(kind('POST', '/v1/auth/login')).toBe('public');
      expect(kind('GET', '/healthz')).toBe('public');
      // Payment-request links: the owner's routes and the wallet pay need a user; the pay page's read and card pay are public.
      expect(kind('POST', '/v1/payment-request/create')).toBe('user');
      expect(kind('GET', '/v1/payment-request/:id')).toBe('user');
      expect(kind('PATCH', '/v1/payment-request/update/:id')).toBe('user');
      expect(kind('PATCH', '/v1/payment-request/limit/update/:id')).toBe('user');
      expect(kind('GET', '/v1/payment/source')).toBe('user');
      expect(kind('GET', '/v1/payment/payment-request/:id')).toBe('user');
      expect(kind('POST', '/v1/payment-request/kestrel/complete-payment/:pRequestURLId')).toBe('user');
      expect(kind('GET', '/v1/payment-request/link/:pRequestURLId')).toBe('public');
      expect(kind('POST', '/v1/payment-request/card/complete-payment/:pRequestURLId')).toBe('public');
    } finally {
      await app.close();
    }
  });

  it('catches a planted route that forgot its guard, and a guard that does not run first', async () => {
    const { app, routes } = await routeTable();
    try {
      app.get('/v1/planted-unguarded', async () => ({ status: 'success', data: null }));
      app.get('/v1/planted-late-guard', { preHandler: [async () => undefined, requireUser] }, async () => ({ status: 'success', data: null }));
      app.get('/v1/planted-guarded', { preHandler: [requireUser, async () => undefined] }, async () => ({ status: 'success', data: null }));
      // Fastify adds a HEAD twin of every GET with the same pre-handlers; look at the GETs.
      const planted = routes.filter((route) => route.method === 'GET' && route.url.startsWith('/v1/planted'));
      expect(planted.map((route) => [route.url, routeProtection(route)])).toEqual([
        ['/v1/planted-unguarded', 'unguarded'],
        ['/v1/planted-late-guard', 'unguarded'],
        ['/v1/planted-guarded', 'user'],
      ]);
      // A public entry covers its own method and path only.
      expect(routeProtection({ method: 'POST', url: '/healthz', preHandler: undefined })).toBe('unguarded');
      expect(routeProtection({ method: 'HEAD', url: '/healthz', preHandler: undefined })).toBe('public');
      expect(PUBLIC_ROUTES).toContain('POST /v1/auth/login');
      expect(routeProtection({ method: 'GET', url: '/v1/x', preHandler: requireOperator })).toBe('operator');
    } finally {
      await app.close();
    }
  });
});

describe('requireOperator', () => {
  it('answers 401 without a session and 404 to a signed-in non-operator', async () => {
    const holder = await createUser();
    expect((await api('GET', '/v1/operator/identity-reviews')).status).toBe(401);
    const response = await api('GET', '/v1/operator/identity-reviews', { token: holder.token });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error', code: 'not_found' });
  });
});

import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { api, testConfig, testDatabase } from '../../test/harness.ts';
import { createUser, type TestUser } from '../../test/factories.ts';
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
      app.get('/v1/planted-late-guard', { onRequest: [async () => undefined, requireUser] }, async () => ({ status: 'success', data: null }));
      app.get('/v1/planted-guarded', { onRequest: [requireUser, async () => undefined] }, async () => ({ status: 'success', data: null }));
      // A guard as a pre-handler runs after the body is validated: it does not count.
      app.get('/v1/planted-prehandler-guard', { preHandler: requireUser }, async () => ({ status: 'success', data: null }));
      // Fastify adds a HEAD twin of every GET with the same pre-handlers; look at the GETs.
      const planted = routes.filter((route) => route.method === 'GET' && route.url.startsWith('/v1/planted'));
      expect(planted.map((route) => [route.url, routeProtection(route)])).toEqual([
        ['/v1/planted-unguarded', 'unguarded'],
        ['/v1/planted-late-guard', 'unguarded'],
        ['/v1/planted-guarded', 'user'],
        ['/v1/planted-prehandler-guard', 'unguarded'],
      ]);
      // A public entry covers its own method and path only.
      expect(routeProtection({ method: 'POST', url: '/healthz', onRequest: undefined })).toBe('unguarded');
      expect(routeProtection({ method: 'HEAD', url: '/healthz', onRequest: undefined })).toBe('public');
      expect(PUBLIC_ROUTES).toContain('POST /v1/auth/login');
      expect(routeProtection({ method: 'GET', url: '/v1/x', onRequest: requireOperator })).toBe('operator');
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

/** The route's path with every parameter filled in (a well-formed id that names nothing). */
const concretePath = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

/** Bodies and queries no route accepts: authorisation must answer before validation looks at them. */
const junkBodies: (string | undefined)[] = [undefined, '{"reason":"","amount":"-1.001","tpin":"x"}', '{not json'];

describe('authorisation runs before validation on every guarded route', () => {
  it('answers 401 to an anonymous caller and 404 to a signed-in non-operator on operator routes, whatever the body', async () => {
    const { app, routes } = await routeTable();
    let holder: TestUser | undefined;
    try {
      holder = await createUser();
      const guarded = routes.filter((route) => route.method !== 'HEAD' && !['public', 'unguarded'].includes(routeProtection(route)));
      // The walk covers the whole guarded table, not a handful.
      expect(guarded.length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const route of guarded) {
        const method = [route.method].flat()[0] as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
        const url = `${concretePath(route.url)}?q=&status=Nope&page=-1`;
        for (const payload of method === 'GET' ? [undefined] : junkBodies) {
          const headers = payload === undefined ? {} : { 'content-type': 'application/json' };
          const anonymous = await app.inject({ method, url, headers, payload });
          if (anonymous.statusCode !== 401) wrong.push(`anonymous ${method} ${route.url} ${payload ?? ''} -> ${anonymous.statusCode}`);
          if (routeProtection(route) === 'operator') {
            const user = await app.inject({ method, url, headers: { ...headers, authorization: holder.token }, payload });
            if (user.statusCode !== 404) wrong.push(`holder ${method} ${route.url} ${payload ?? ''} -> ${user.statusCode}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('answers 401, not 400, on the routes the penetration test named', async () => {
    const holder = await createUser();
    const id = '00000000-0000-4000-8000-000000000000';
    const probes: [string, string, unknown?][] = [
      ['GET', '/v1/operator/accounts?q='],
      ['POST', `/v1/operator/stores/${id}/reject`, {}],
      ['POST', `/v1/operator/withdrawals/${id}/fail`, { reason: '' }],
      ['POST', `/v1/operator/callbacks/${id}/resend`, {}],
    ];
    for (const [method, url, body] of probes) {
      expect((await api(method, url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await api(method, url, { body, token: holder.token })).status, `${method} ${url}`).toBe(404);
    }
  });
});

import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { api, testConfig, testDatabase } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { routeProtection } from '../guards.ts';
import { documentedRouteKeys, operationDoc, routeKey } from './operations.ts';
import { takeUndocumentedAnswers } from './status-check.ts';

type Json = Record<string, any>;

async function documentAndRoutes() {
  const handle = await testDatabase();
  const config = testConfig();
  const routes: RouteOptions[] = [];
  const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web'), onRoute: (route) => routes.push(route) });
  await app.ready();
  const document = app.swagger() as Json;
  await app.close();
  const documented = routes.filter((route) => !(route.schema as Json | undefined)?.hide);
  const keys = documented.flatMap((route) => [route.method].flat().filter((method) => method !== 'HEAD').map((method) => routeKey(method, route.url)));
  return { document, routes: documented, keys };
}

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const operationOf = (document: Json, key: string) => {
  const [method = '', url = ''] = key.split(' ');
  return document.paths[openapiPath(url)]?.[method.toLowerCase()] as Json | undefined;
};

describe('the API reference', () => {
  it('has a table entry for every documented route, and none for a route that does not exist', async () => {
    const { keys } = await documentAndRoutes();
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((key) => !operationDoc(key))).toEqual([]);
    expect(documentedRouteKeys().filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary, a description and one declared tag', async () => {
    const { document, keys } = await documentAndRoutes();
    const declared = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    const ids = keys.map((key) => operationOf(document, key)?.operationId);
    expect(new Set(ids).size).toBe(keys.length);
    for (const key of keys) {
      const operation = operationOf(document, key)!;
      expect(operation.summary, key).toBeTruthy();
      expect(operation.description, key).toBeTruthy();
      expect(operation.tags, key).toHaveLength(1);
      expect(declared.has(operation.tags[0]), `${key}: tag ${operation.tags[0]}`).toBe(true);
    }
  });

  it('documents 401 on every protected route, 429 on every limited one, and no security on public ones', async () => {
    const { document, routes } = await documentAndRoutes();
    for (const route of routes) {
      for (const method of [route.method].flat().filter((candidate) => candidate !== 'HEAD')) {
        const key = routeKey(method, route.url);
        const operation = operationOf(document, key)!;
        const protection = routeProtection(route);
        if (protection === 'public') {
          expect(operation.security, key).toEqual([]);
        } else {
          expect(operation.responses['401'], key).toBeDefined();
          expect(operation.security.length, key).toBeGreaterThan(0);
        }
        if ((route.config as Json | undefined)?.rateLimit) expect(operation.responses['429'], key).toBeDefined();
        for (const [status, answer] of Object.entries(operation.responses as Json)) {
          if (Number(status) >= 400) expect(answer.content['application/json'].schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
    }
    // The sign-up and the e-mail link are public (a generated client must not demand a token).
    expect(operationOf(document, 'POST /v1/user/register')!.security).toEqual([]);
    expect(operationOf(document, 'POST /v1/user/verify-email')!.security).toEqual([]);
    expect(operationOf(document, 'POST /v1/payment/web-pay')!.security).toEqual([{ storeId: [], storeKey: [] }]);
  });

  it('names the contracts, types binary answers and multipart bodies, and describes the signed callback', async () => {
    const { document } = await documentAndRoutes();
    const schemas = document.components.schemas as Json;
    for (const name of ['Payment', 'Error', 'WebPayRequest', 'WebPayAnswer', 'DirectPayRequest', 'PaymentResult', 'StoreCallbackEvent']) expect(schemas[name], name).toBeDefined();
    const webPay = operationOf(document, 'POST /v1/payment/web-pay')!;
    expect(webPay.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebPayRequest' });
    expect(webPay.requestBody.content['application/json'].example.orderId).toBe('order-1001');
    expect(Object.keys(operationOf(document, 'GET /data/v1/invoice/:id/pdf')!.responses['200'].content)).toEqual(['application/pdf']);
    expect(Object.keys(operationOf(document, 'GET /v1/store-logos/:name')!.responses['200'].content)).toContain('image/png');
    expect(operationOf(document, 'POST /v1/payment_gateway_store/create')!.requestBody.content['multipart/form-data'].schema.required).toContain('storeLogo');
    const redirect = operationOf(document, 'POST /v1/payment/web-pay/redirect')!;
    expect(redirect.responses['303'].headers.Location).toBeDefined();
    expect(redirect.responses['200']).toBeDefined();
    const callback = document.webhooks.storeCallback.post;
    expect(callback.parameters[0].name).toBe('Kestrel-Signature');
    expect(callback.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StoreCallbackEvent' });
    // No leftovers from the old inline forms.
    expect(JSON.stringify(schemas.Payment)).not.toContain('"anyOf":[{}');
  });

  it("gives every JSON request and success answer an example the route's own contract accepts", async () => {
    const { document, routes } = await documentAndRoutes();
    const rejected: string[] = [];
    for (const route of routes) {
      const schema = (route.schema ?? {}) as Json;
      for (const method of [route.method].flat().filter((candidate) => candidate !== 'HEAD')) {
        const key = routeKey(method, route.url);
        const operation = operationOf(document, key)!;
        const request = operation.requestBody?.content?.['application/json'];
        if (request) {
          expect(request.example, `${key} request`).toBeDefined();
          const parsed = schema.body?.safeParse?.(request.example);
          if (parsed && !parsed.success) rejected.push(`${key} request: ${JSON.stringify(parsed.error.issues[0])}`);
        }
        for (const [status, answer] of Object.entries(operation.responses as Json)) {
          const media = /^2/.test(status) ? answer.content?.['application/json'] : undefined;
          if (!media) continue;
          expect(media.example, `${key} ${status}`).toBeDefined();
          const parsed = schema.response?.[status]?.safeParse?.(media.example);
          if (parsed && !parsed.success) rejected.push(`${key} ${status}: ${JSON.stringify(parsed.error.issues[0])}`);
        }
      }
    }
    expect(rejected).toEqual([]);
    // Composed from the contracts' field examples, not placeholders.
    const transfer = operationOf(document, 'POST /v1/account/transfer_balance')!.requestBody.content['application/json'].example;
    expect(transfer).toMatchObject({ tpin: '4826', balance: '25.50', currency: 'USD' });
  });

  it('records an answer whose status the operation does not list (the suite-wide check)', async () => {
    const handle = await testDatabase();
    const config = testConfig();
    const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    try {
      // /v1/config documents 200, 400 and 500; a planted 418 must be caught.
      app.addHook('onRequest', async (request, reply) => {
        if (request.url === '/v1/config?teapot=1') return reply.status(418).send({ status: 'error', error: 'teapot', code: 'teapot' });
      });
      expect(takeUndocumentedAnswers()).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/v1/config' })).statusCode).toBe(200);
      expect(takeUndocumentedAnswers()).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/v1/config?teapot=1' })).statusCode).toBe(418);
      expect(takeUndocumentedAnswers()).toEqual([{ route: 'GET /v1/config', status: 418 }]);
    } finally {
      await app.close();
    }
  });

  it('is what GET /v1/openapi.json serves', async () => {
    const response = await api('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.paths['/v1/payment/web-pay'].post.operationId).toBe('createPayment');
    // /v1/docs opens with the SDK snippets the Integration tab shows (same text, placeholder ids).
    expect(response.body.info.description).toContain("storeId: 'YOUR_STORE_ID'");
    expect(response.body.info.description).toContain('webhooks.verify(rawBody');
  });
});

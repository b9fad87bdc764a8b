import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { messages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { acquireDirectoryLock, DataDirectoryBusyError } from '../src/db/directory-lock.ts';
import { api, testConfig, testDatabase, testServer } from './harness.ts';
import { createUser } from './factories.ts';

describe('the platform', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await api('GET', '/readyz')).body).toEqual({ status: 'ok' });
  });

  it('serves the public web settings: MARKETING_URL, by default the public address', async () => {
    const server = await testServer();
    const response = await api('GET', '/v1/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', data: { marketingUrl: server.config.marketingUrl } });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-config-'));
    expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x'.repeat(64) }).marketingUrl).toBe('http://localhost:3000/');
    expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x'.repeat(64), MARKETING_URL: 'https://www.kestrel.example/' }).marketingUrl).toBe('https://www.kestrel.example/');
    expect(() => loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x'.repeat(64), MARKETING_URL: 'not a url' })).toThrow(/MARKETING_URL/);
  });

  it('sends the security headers', async () => {
    const response = await api('GET', '/healthz');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('answers unknown API paths with the error envelope', async () => {
    const response = await api('GET', '/v1/no-such-route');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error', code: 'route_not_found', error: expect.any(String) });
  });

  it('answers malformed JSON with 400 and a readable error', async () => {
    const { baseUrl } = await testServer();
    const response = await fetch(`${baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'error', error: expect.any(String) });
  });

  it('publishes the OpenAPI document generated from the route schemas', async () => {
    const response = await api('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    for (const route of ['/v1/auth/login', '/v1/user/register', '/v1/account/transfer_balance', '/data/v1/countries', '/v1/payment-request/create', '/v1/payment-request/link/{pRequestURLId}']) {
      expect(Object.keys(response.body.paths)).toContain(route);
    }
    // Responses are documented from the shared contracts, not only requests (named ones by $ref to components).
    const resolve = (schema: any): any => (schema?.$ref ? response.body.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);
    const transfer = response.body.paths['/v1/account/transfer_balance'].post;
    const answer = transfer.responses['200'].content['application/json'].schema;
    expect(Object.keys(resolve(answer.properties.data).properties)).toEqual(
      expect.arrayContaining(['transactionId', 'amount', 'currency', 'debitAccountKey', 'creditAccountKey', 'balance', 'transactionAt']),
    );
    expect(resolve(transfer.requestBody.content['application/json'].schema).properties.balance).toBeTruthy();
    const recipient = response.body.paths['/v1/recipients/{userName}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(resolve(recipient.properties.data).properties)).toEqual(expect.arrayContaining(['_id', 'accountNumber', 'userName']));
    const docs = await api('GET', '/v1/docs/');
    expect(docs.status).toBe(200);
  });

  it('serves the country list without authentication', async () => {
    const response = await api('GET', '/data/v1/countries');
    expect(response.status).toBe(200);
    expect(response.body.US).toEqual({ country: 'United States of America' });
    expect(response.body.BD).toEqual({ country: 'Bangladesh' });
    expect(Object.keys(response.body).length).toBeGreaterThan(240);
  });
});

describe('rate limits (per address)', () => {
  it('answers 429 with a readable error once the limit is reached', async () => {
    const handle = await testDatabase();
    const config = testConfig({ rateLimits: true });
    const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    try {
      const user = await createUser({ verified: false });
      const statuses: number[] = [];
      let last: { error?: string } = {};
      for (let i = 0; i < 6; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/v1/user/send-verification-code',
          headers: { authorization: user.token },
          payload: { email: user.email },
        });
        statuses.push(response.statusCode);
        last = response.json();
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
      expect(last).toMatchObject({ status: 'error', code: 'rate_limited', error: expect.stringMatching(/^Too many requests/) });
      expect(messages.verification.sent).toBe('Verification mail sent');
    } finally {
      await app.close();
    }
  });
});

describe('the embedded database lock', () => {
  it('refuses a data directory held by a live process, and takes over a stale lock', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-lock-'));
    const lockFile = path.join(dir, 'kestrel.lock');
    writeFileSync(lockFile, String(process.ppid));
    expect(() => acquireDirectoryLock(lockFile)).toThrow(DataDirectoryBusyError);
    expect(() => acquireDirectoryLock(lockFile)).toThrow(/in use by another running Kestrel process/);

    writeFileSync(lockFile, '2147483646');
    const lock = acquireDirectoryLock(lockFile);
    lock.release();
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { callbackDeliveriesOf, card, createPayment, createStore } from '../../../test/gateway-fixtures.ts';
import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { sendCallback } from './delivery.ts';
import { isPrivateAddress } from '../../security/private-addresses.ts';
import { deliverDueCallbacks, retryDelayMs, RETRY_WINDOW_MS } from './worker.ts';

interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A store's callback endpoint: answers the queued statuses in turn (then 200), records every request. */
function storeListener() {
  const hits: Hit[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      hits.push({ path: request.url ?? '', headers: request.headers, body });
      if (request.url === '/hang') return; // never answers
      const status = statuses.shift() ?? 200;
      response.writeHead(status, status === 302 ? { location: '/elsewhere' } : {});
      response.end('ok');
    });
  });
  return { server, hits, statuses };
}

/** Independent check of "t=<ts>,v1=<hex>" = HMAC-SHA256(storeKey, `${ts}.${body}`), with WebCrypto rather than the code under test. */
async function verifySignature(storeKey: string, header: string, body: string): Promise<boolean> {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(storeKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${match[1]}.${body}`));
  return Buffer.from(mac).toString('hex') === match[2];
}

let listener: ReturnType<typeof storeListener>;
let listenerUrl: string;
let privateCtx: AppContext;
let publicCtx: AppContext;

beforeAll(async () => {
  listener = storeListener();
  await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.server.address() as AddressInfo).port}`;
  const server = await testServer();
  privateCtx = { ...server.app.ctx, config: { ...server.config, allowPrivateCallbacks: true } };
  publicCtx = { ...server.app.ctx, config: { ...server.config, allowPrivateCallbacks: false } };
});
afterAll(async () => {
  listener.server.closeAllConnections();
  await new Promise((resolve) => listener.server.close(resolve));
});

async function attemptsOf(deliveryId: number) {
  const { db } = await testServer();
  return db.selectFrom('callbackAttempts').selectAll().where('deliveryId', '=', deliveryId).orderBy('id').execute();
}

describe('store callbacks', () => {
  it('are queued with the payment, signed, retried with back-off after a failure, and every attempt recorded', async () => {
    const store = await createStore({ callbackURL: `${listenerUrl}/callback/retry` });
    const paymentId = await createPayment(store, { amount: 12.5 });
    const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() });
    const [delivery] = await callbackDeliveriesOf(store);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 0, paymentId });
    const expectedBody = { paymentStatus: 'success', tnxId: paid.body.data.tnxId, currency: 'USD', amount: 12.5, orderId: paid.body.data.orderId, paymentId };
    expect(JSON.parse(delivery!.body)).toEqual(expectedBody);

    listener.statuses.push(500);
    const firstAt = new Date();
    expect(await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id], now: firstAt })).toBe(1);
    let [row] = await callbackDeliveriesOf(store);
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row!.nextAttemptAt.getTime()).toBe(firstAt.getTime() + 30_000);
    // Not due yet: nothing is sent.
    expect(await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id], now: new Date(firstAt.getTime() + 29_000) })).toBe(0);

    expect(await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id], now: new Date(firstAt.getTime() + 30_000) })).toBe(1);
    [row] = await callbackDeliveriesOf(store);
    expect(row).toMatchObject({ state: 'delivered', attempts: 2 });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((attempt) => [attempt.statusCode, attempt.error])).toEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
    expect(attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);

    const hits = listener.hits.filter((hit) => hit.path === '/callback/retry');
    expect(hits).toHaveLength(2);
    for (const hit of hits) {
      expect(JSON.parse(hit.body)).toEqual(expectedBody);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(await verifySignature(store.storeKey, String(hit.headers['kestrel-signature']), hit.body)).toBe(true);
      expect(await verifySignature(`${store.storeKey}x`, String(hit.headers['kestrel-signature']), hit.body)).toBe(false);
    }

    // The browser's redirect carries the same fields and a signature over the same JSON.
    const redirect = new URL(paid.body.redirectUrl);
    const q = Object.fromEntries(redirect.searchParams);
    const rebuilt = JSON.stringify({ paymentStatus: q.paymentStatus, tnxId: q.tnxId || null, currency: q.currency, amount: Number(q.amount), orderId: q.orderId, paymentId: q.paymentId });
    expect(await verifySignature(store.storeKey, `t=${q.timestamp},v1=${q.signature}`, rebuilt)).toBe(true);
  });

  it('tell the store about a failed attempt too', async () => {
    const store = await createStore({ callbackURL: `${listenerUrl}/callback/failed` });
    const paymentId = await createPayment(store);
    await api('POST', `/v1/payment/complete/${paymentId}`, { body: card('4000 0000 0000 9995') });
    const [delivery] = await callbackDeliveriesOf(store);
    expect(JSON.parse(delivery!.body)).toMatchObject({ paymentStatus: 'failed', tnxId: null, paymentId });
  });

  it('are not sent to loopback or private addresses unless allowed', async () => {
    const store = await createStore({ callbackURL: `${listenerUrl}/callback/ssrf` });
    await api('POST', `/v1/payment/complete/${await createPayment(store)}`, { body: card() });
    const [delivery] = await callbackDeliveriesOf(store);
    await deliverDueCallbacks(publicCtx, { deliveryIds: [delivery!.id] });
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt!.error).toBe('refused: 127.0.0.1 is a private or loopback address');
    expect(listener.hits.filter((hit) => hit.path === '/callback/ssrf')).toHaveLength(0);

    const port = (listener.server.address() as AddressInfo).port;
    const byName = await sendCallback(`http://localhost:${port}/callback/ssrf`, '{}', 'k', false);
    expect(byName.ok).toBe(false);
    expect(byName.error).toMatch(/^refused: localhost resolves to a private or loopback address|refused/);
    expect(listener.hits.filter((hit) => hit.path === '/callback/ssrf')).toHaveLength(0);
    expect((await sendCallback('ftp://example.test/x', '{}', 'k', true)).error).toBe('refused: only http and https callbacks are sent');

    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect({ address, blocked: isPrivateAddress(address) }).toEqual({ address, blocked: true });
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      expect({ address, blocked: isPrivateAddress(address) }).toEqual({ address, blocked: false });
    }
  });

  it('do not follow redirects and time out', async () => {
    listener.statuses.push(302);
    const redirected = await sendCallback(`${listenerUrl}/callback/redirect`, '{}', 'k', true);
    expect(redirected).toMatchObject({ ok: false, statusCode: 302, error: 'redirect to /elsewhere not followed' });
    expect(listener.hits.filter((hit) => hit.path === '/elsewhere')).toHaveLength(0);
    const hung = await sendCallback(`${listenerUrl}/hang`, '{}', 'k', true, 200);
    expect(hung.ok).toBe(false);
    expect(hung.error).toBe('timed out after 200 ms');
  });

  it('back off exponentially and give up after about 3 days', async () => {
    const delays = Array.from({ length: 30 }, (_, i) => retryDelayMs(i + 1));
    expect(delays.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    let total = 0;
    let attempts = 0;
    while (total + retryDelayMs(attempts + 1) <= RETRY_WINDOW_MS) total += retryDelayMs(++attempts);
    expect(attempts).toBeGreaterThan(10);
    expect(total).toBeGreaterThan(2.5 * 24 * 3600_000);

    const store = await createStore({ callbackURL: `${listenerUrl}/callback/down` });
    await api('POST', `/v1/payment/complete/${await createPayment(store)}`, { body: card() });
    const [delivery] = await callbackDeliveriesOf(store);
    listener.statuses.push(503);
    await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id], now: new Date(delivery!.createdAt.getTime() + RETRY_WINDOW_MS) });
    const [row] = await callbackDeliveriesOf(store);
    expect(row).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('are listed on the store (last 20, owner only) and can be re-sent', async () => {
    const store = await createStore({ callbackURL: `${listenerUrl}/callback/list` });
    await api('POST', `/v1/payment/complete/${await createPayment(store)}`, { body: card() });
    const [delivery] = await callbackDeliveriesOf(store);
    await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id] });

    const list = await api('GET', `/v1/payment_gateway_store/${store.storeId}/callbacks`, { token: store.owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ _id: String(delivery!.id), state: 'delivered', attempts: [{ statusCode: 200, error: null }] });

    const stranger = await createUser();
    await createAccount(stranger);
    expect((await api('GET', `/v1/payment_gateway_store/${store.storeId}/callbacks`, { token: stranger.token })).status).toBe(404);
    expect((await api('POST', `/v1/payment_gateway_store/${store.storeId}/callbacks/${delivery!.id}/resend`, { token: stranger.token })).status).toBe(404);

    // The test server allows private targets (its listeners are on loopback, as in development),
    // so the immediate re-send reaches the listener again and is recorded as a second attempt.
    const resent = await api('POST', `/v1/payment_gateway_store/${store.storeId}/callbacks/${delivery!.id}/resend`, { token: store.owner.token });
    expect(resent.status).toBe(200);
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toMatchObject({ statusCode: 200, error: null });
  });

  it('reach the development listener, which verifies them with the store key', async () => {
    const { baseUrl } = await testServer();
    const store = await createStore({ callbackURL: `${baseUrl}/dev/store-callbacks` });
    const paymentId = await createPayment(store);
    await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() });
    const [delivery] = await callbackDeliveriesOf(store);
    await deliverDueCallbacks(privateCtx, { deliveryIds: [delivery!.id] });
    const [row] = await callbackDeliveriesOf(store);
    expect(row!.state).toBe('delivered');
    const seen = await api('GET', '/dev/store-callbacks.json');
    const entry = seen.body.find((item: { body: string }) => item.body.includes(paymentId));
    expect(entry).toMatchObject({ verified: true, reason: 'signature verified with the store key' });
    // The browser's redirect lands on the listener page, which checks its signature too.
    const paid = await api('GET', `/v1/payment/paymentId/${paymentId}`, { token: store.owner.token });
    expect(paid.body.data.paymentStatus).toBe('success');
    const again = await createPayment(store);
    const answer = await api('POST', `/v1/payment/complete/${again}`, { body: card() });
    const landing = await fetch(answer.body.redirectUrl);
    expect(await landing.text()).toContain('✔ Redirect signature verified');
    const tampered = new URL(answer.body.redirectUrl);
    tampered.searchParams.set('amount', '1');
    expect(await (await fetch(tampered)).text()).toContain('✘ Redirect signature does not match');
    const forged = await api('POST', '/dev/store-callbacks', { headers: { 'kestrel-signature': `t=1,v1=${'0'.repeat(64)}` }, body: JSON.parse(delivery!.body) });
    expect(forged.status).toBe(400);
    expect(forged.body.verified).toBe(false);
  });
});

describe('ALLOW_PRIVATE_CALLBACKS', () => {
  it('defaults to on only in development', () => {
    const base = { DATA_DIR: (process.env.TMPDIR ?? '/tmp') + '/kestrel-config-test', SECRET_KEY: 'x'.repeat(64) };
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).allowPrivateCallbacks).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).allowPrivateCallbacks).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).allowPrivateCallbacks).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'development', ALLOW_PRIVATE_CALLBACKS: '0' }).allowPrivateCallbacks).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'production', ALLOW_PRIVATE_CALLBACKS: '1' }).allowPrivateCallbacks).toBe(true);
  });
});

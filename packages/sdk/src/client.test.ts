import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../apps/api/test/harness.ts';
import { card, createStore, webPayBodyFor } from '../../../apps/api/test/gateway-fixtures.ts';
import { Kestrel, KestrelError, type WebPayRequest } from './index.ts';

/* The SDK against the real API (PGlite or PostgreSQL), over HTTP. */

async function sdkFor(options: { approve?: boolean; fetch?: typeof fetch; maxRetries?: number; timeoutMs?: number } = {}) {
  const { baseUrl } = await testServer();
  const store = await createStore({ approve: options.approve });
  const kestrel = new Kestrel({ storeId: store.storeId, storeKey: store.storeKey, baseUrl, backoffMs: 10, ...options });
  return { store, kestrel, baseUrl };
}

const order = (overrides: Record<string, unknown> = {}) => webPayBodyFor(overrides) as WebPayRequest;

async function rejection(promise: Promise<unknown>): Promise<KestrelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(KestrelError);
  return error as KestrelError;
}

describe('@kestrel/sdk payments', () => {
  it('creates a payment, answers the checkout address, and retrieves it', async () => {
    const { kestrel, baseUrl } = await sdkFor();
    const body = order({ amount: '25.50' });
    const created = await kestrel.payments.create(body);
    expect(created).toMatchObject({ orderId: body.orderId, amount: 25.5, currency: 'USD', paymentStatus: 'initiate' });
    expect(created.redirectUrl).toBe(`${baseUrl}/web-pay/${created.urlId}`);
    const payment = await kestrel.payments.retrieve(created.paymentId);
    expect(payment).toMatchObject({ paymentId: created.paymentId, orderId: body.orderId, amount: 25.5, paymentStatus: 'initiate', paymentErrors: [] });
  });

  it('creates through the redirect route, asked for JSON', async () => {
    const { kestrel, baseUrl } = await sdkFor();
    const created = await kestrel.payments.createRedirect(order());
    expect(created.redirectUrl).toBe(`${baseUrl}/web-pay/${created.urlId}`);
    // A browser's form post still gets the 303.
    const { store } = await sdkFor();
    const response = await fetch(`${baseUrl}/v1/payment/web-pay/redirect`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...store.headers, 'content-type': 'application/json', accept: 'text/html,*/*' },
      body: JSON.stringify(order()),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(`${baseUrl}/web-pay/`);
  });

  it('charges a test card directly, and a declined card is a 402 KestrelError', async () => {
    const { kestrel } = await sdkFor();
    const paid = await kestrel.payments.completeDirect({ ...order({ amount: 10 }), ...card('4242424242424242') } as never);
    expect(paid).toMatchObject({ paymentStatus: 'success', amount: 10, currency: 'USD' });
    expect((await kestrel.payments.retrieve(paid.paymentId)).paymentStatus).toBe('success');
    const declined = await rejection(kestrel.payments.completeDirect({ ...order(), ...card('4000000000000002') } as never));
    expect(declined).toMatchObject({ status: 402, code: 'card_declined', message: 'Your card was declined.' });
  });

  it('turns every error shape into a KestrelError: 400 with fields, 401, 403, 404, 409', async () => {
    const { kestrel, baseUrl } = await sdkFor();
    const invalid = await rejection(kestrel.payments.create(order({ customerEmail: 'not-an-email' })));
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed', fields: { customerEmail: 'customerEmail must be an e-mail address' } });

    const { store } = await sdkFor();
    const wrongKey = new Kestrel({ storeId: store.storeId, storeKey: 'not-the-key', baseUrl });
    expect(await rejection(wrongKey.payments.create(order()))).toMatchObject({ status: 401 });

    const pending = await sdkFor({ approve: false });
    expect(await rejection(pending.kestrel.payments.create(order()))).toMatchObject({ status: 403 });

    const other = await new Kestrel({ storeId: store.storeId, storeKey: store.storeKey, baseUrl }).payments.create(order());
    expect(await rejection(kestrel.payments.retrieve(other.paymentId))).toMatchObject({ status: 404 });

    const body = order();
    await kestrel.payments.create(body);
    expect(await rejection(kestrel.payments.create(body))).toMatchObject({ status: 409 });
  });

  it('sends one Idempotency-Key per call: a retry after a lost answer gets the first payment, not a second', async () => {
    let calls = 0;
    const keys: (string | null)[] = [];
    const losesFirstAnswer: typeof fetch = async (input, init) => {
      calls += 1;
      const request = new Request(input, init);
      keys.push(request.headers.get('idempotency-key'));
      const response = await fetch(request);
      if (calls === 1) throw new TypeError('fetch failed (the answer was lost)');
      return response;
    };
    const { kestrel, store } = await sdkFor({ fetch: losesFirstAnswer });
    const body = order();
    const created = await kestrel.payments.create(body);
    expect(calls).toBe(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const payments = await api('GET', `/v1/payment/store/${store.storeId}`, { token: store.owner.token });
    expect(payments.body.data.filter((payment: { orderId: string }) => payment.orderId === body.orderId).map((payment: { paymentId: string }) => payment.paymentId)).toEqual([created.paymentId]);
    // The caller's own key is sent as given.
    const key = `order-key-${body.orderId}`;
    const repeated = order();
    const again = await kestrel.payments.create(repeated, { idempotencyKey: key });
    expect(keys.at(-1)).toBe(key);
    expect((await kestrel.payments.create(repeated, { idempotencyKey: key })).paymentId).toBe(again.paymentId);
    // The same key with another body is refused, not replayed.
    expect(await rejection(kestrel.payments.create(order(), { idempotencyKey: key }))).toMatchObject({ status: 422 });
  });

  it('retries 503 and 429 after Retry-After, and never another 4xx', async () => {
    let calls = 0;
    const busyOnce: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 1) return new Response(JSON.stringify({ status: 'error', error: 'Database unavailable', code: 'database_unavailable' }), { status: 503, headers: { 'retry-after': '1' } });
      if (calls === 2) return new Response(JSON.stringify({ status: 'error', error: 'Too many requests', code: 'rate_limited' }), { status: 429, headers: { 'retry-after': '0' } });
      return fetch(new Request(input, init));
    };
    const { kestrel } = await sdkFor({ fetch: busyOnce });
    const started = Date.now();
    await kestrel.payments.create(order());
    expect(calls).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    let refusedCalls = 0;
    const counting: typeof fetch = async (input, init) => {
      refusedCalls += 1;
      return fetch(new Request(input, init));
    };
    const refused = await sdkFor({ fetch: counting });
    expect(await rejection(refused.kestrel.payments.create(order({ currency: 'XYZ' })))).toMatchObject({ status: 400 });
    expect(refusedCalls).toBe(1);

    const alwaysBusy = await sdkFor({ fetch: async () => new Response('{"status":"error","error":"Busy","code":"database_unavailable"}', { status: 503, headers: { 'retry-after': '0' } }), maxRetries: 1 });
    expect(await rejection(alwaysBusy.kestrel.payments.create(order()))).toMatchObject({ status: 503, code: 'database_unavailable', retryAfterSeconds: 0 });
  });

  it('times out an attempt that gets no answer, retries it, then says so', async () => {
    let calls = 0;
    const silent: typeof fetch = (input, init) => {
      calls += 1;
      const signal = new Request(input, init).signal;
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    const { kestrel } = await sdkFor({ fetch: silent, timeoutMs: 100, maxRetries: 1 });
    expect(await rejection(kestrel.payments.create(order()))).toMatchObject({ status: 0, code: 'timeout' });
    expect(calls).toBe(2);
  });
});

describe('@kestrel/sdk refunds', () => {
  it('refunds part of a payment, then the rest, lists them, and a refused card refund is a 402 KestrelError', async () => {
    const { kestrel } = await sdkFor();
    const paid = await kestrel.payments.completeDirect({ ...order({ amount: 20 }), ...card('4242424242424242') } as never);
    const part = await kestrel.refunds.create(paid.paymentId, { amount: 5, reason: 'One item returned' });
    expect(part).toMatchObject({ paymentId: paid.paymentId, amount: 5, fee: { amount: 0.1, currency: 'USD' }, status: 'succeeded', reason: 'One item returned' });
    // The same key twice is one refund.
    const rest = await kestrel.refunds.create(paid.paymentId, {}, { idempotencyKey: `rest-${paid.paymentId}` });
    expect(await kestrel.refunds.create(paid.paymentId, {}, { idempotencyKey: `rest-${paid.paymentId}` })).toEqual(rest);
    expect(rest).toMatchObject({ amount: 15, fee: { amount: 0.3 } });
    expect((await kestrel.refunds.list(paid.paymentId)).map((refund) => refund.refundId)).toEqual([rest.refundId, part.refundId]);
    expect(await kestrel.payments.retrieve(paid.paymentId)).toMatchObject({ amountRefunded: 20, refundState: 'refunded' });
    expect(await rejection(kestrel.refunds.create(paid.paymentId, { amount: 1 }))).toMatchObject({ status: 409, code: 'refund_exceeds_remaining' });

    const refusing = await kestrel.payments.completeDirect({ ...order({ amount: 10 }), ...card('4000000000005126') } as never);
    expect(await rejection(kestrel.refunds.create(refusing.paymentId))).toMatchObject({ status: 402, code: 'refund_declined' });
  });
});

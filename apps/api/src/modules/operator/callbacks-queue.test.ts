import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { callbackDeliveriesOf, card, createPayment, createStore, operatorToken, type TestStore } from '../../../test/gateway-fixtures.ts';
import type { AppContext } from '../../context.ts';
import { deliverDueCallbacks, RETRY_WINDOW_MS } from '../callbacks/worker.ts';

/*
 * The operator's queue of failing callback deliveries. Failures are real: the worker runs with
 * private addresses refused, so a delivery to 127.0.0.1 fails its attempt without any network.
 */

async function refusingCtx(): Promise<AppContext> {
  const server = await testServer();
  return { ...server.app.ctx, config: { ...server.config, allowPrivateCallbacks: false } };
}

async function paidDelivery(store: TestStore) {
  await api('POST', `/v1/payment/complete/${await createPayment(store)}`, { body: card() });
  const newest = (await callbackDeliveriesOf(store)).at(-1);
  if (!newest) throw new Error('no callback delivery for the payment');
  return newest;
}

async function deliveryRow(id: number) {
  const { db } = await testServer();
  return db.selectFrom('callbackDeliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Every page of the queue, so other test files' deliveries cannot push ours off the first one. */
async function wholeQueue(token: string): Promise<{ _id: string }[]> {
  const items: { _id: string }[] = [];
  for (let page = 1; ; page++) {
    const response = await api('GET', `/v1/operator/callbacks?page=${page}&pageSize=100`, { token });
    expect(response.status).toBe(200);
    items.push(...(response.body.data.items as { _id: string }[]));
    if (items.length >= response.body.data.total || response.body.data.items.length === 0) return items;
  }
}

describe('operator callback queue', () => {
  it('is for operators only: holders get 404, no session 401', async () => {
    const holder = await createUser();
    await createAccount(holder);
    for (const [method, url, body] of [
      ['GET', '/v1/operator/callbacks'],
      ['POST', '/v1/operator/callbacks/1/resend', { reason: 'x' }],
    ] as const) {
      expect((await api(method, url, { token: holder.token, body })).status, `${method} ${url}`).toBe(404);
      expect((await api(method, url, { body })).status, `${method} ${url}`).toBe(401);
    }
  });

  it('lists the failing deliveries (failed, or pending after a failed attempt), newest first, with the latest attempt', async () => {
    const ops = await operatorToken();
    const store = await createStore({ callbackURL: 'http://127.0.0.1:9/kestrel/callback' });
    const failing = await paidDelivery(store);
    await deliverDueCallbacks(await refusingCtx(), { deliveryIds: [failing.id] });
    const notYetTried = await paidDelivery(store);

    const response = await api('GET', '/v1/operator/callbacks?pageSize=100', { token: ops });
    expect(response.status).toBe(200);
    const queue = await wholeQueue(ops);
    expect(queue.map((item) => item._id)).toContain(String(failing.id));
    expect(queue.map((item) => item._id)).not.toContain(String(notYetTried.id));
    const item = queue.find((entry) => entry._id === String(failing.id));
    expect(item).toMatchObject({
      storeId: store.storeId,
      paymentId: failing.paymentId,
      targetUrl: 'http://127.0.0.1:9/kestrel/callback',
      state: 'pending',
      attempts: 1,
      lastAttempt: { statusCode: null, error: expect.stringContaining('refused') },
    });
    expect(new Date((item as unknown as { nextAttemptAt: string }).nextAttemptAt).getTime()).toBeGreaterThan(Date.now());

    const createdAt = (response.body.data.items as { createdAt: string }[]).map((entry) => entry.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    expect((await api('GET', '/v1/operator/callbacks?pageSize=101', { token: ops })).status).toBe(400);
  });

  it('re-sends a given-up delivery with a reason: due again, to the current callback URL, audited', async () => {
    const ops = await operatorToken();
    const store = await createStore({ callbackURL: 'http://127.0.0.1:9/kestrel/callback' });
    const delivery = await paidDelivery(store);
    await deliverDueCallbacks(await refusingCtx(), { deliveryIds: [delivery.id], now: new Date(delivery.createdAt.getTime() + RETRY_WINDOW_MS) });
    expect(await deliveryRow(delivery.id)).toMatchObject({ state: 'failed', attempts: 1 });

    const noReason = await api('POST', `/v1/operator/callbacks/${delivery.id}/resend`, { token: ops, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields).toMatchObject({ reason: 'Reason is required' });
    expect((await deliveryRow(delivery.id)).state).toBe('failed');
    expect((await api('POST', '/v1/operator/callbacks/999999999999/resend', { token: ops, body: { reason: 'r' } })).status).toBe(404);
    expect((await api('POST', '/v1/operator/callbacks/abc/resend', { token: ops, body: { reason: 'r' } })).status).toBe(404);

    const before = Date.now();
    const resent = await api('POST', `/v1/operator/callbacks/${delivery.id}/resend`, { token: ops, body: { reason: 'Store fixed its endpoint' } });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('Callback queued again');
    expect(resent.body.data).toMatchObject({ _id: String(delivery.id), state: 'pending' });
    const row = await deliveryRow(delivery.id);
    expect(row.state).toBe('pending');
    expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Due again: the worker's next pass picks it up (and, refused again, records a second attempt).
    expect(await deliverDueCallbacks(await refusingCtx(), { deliveryIds: [delivery.id] })).toBe(1);
    expect((await deliveryRow(delivery.id)).attempts).toBe(2);

    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').selectAll().where('action', '=', 'callback.resent').where('subjectId', '=', String(delivery.id)).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorUserId).toBeTruthy();
    expect(audit[0]!.ip).toBeTruthy();
    expect(audit[0]!.details).toMatchObject({ reason: 'Store fixed its endpoint', storeId: store.storeId, before: { state: 'failed' }, after: { state: 'pending', targetUrl: 'http://127.0.0.1:9/kestrel/callback' } });
  });
});

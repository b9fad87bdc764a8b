import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paymentMessages, storeMessages, STORE_KEY_GRACE_HOURS } from '@kestrel/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { card, createPayment, createStore, operatorToken, webPayBodyFor } from '../../../test/gateway-fixtures.ts';
import { deliverDueCallbacks } from '../callbacks/worker.ts';

/* Issue 19 item 5: Approved → Suspended → Approved, and store key rotation with a grace period. */

const suspend = (token: string, storeId: string, reason?: string) => api('POST', `/v1/operator/stores/${storeId}/suspend`, { token, body: reason === undefined ? {} : { reason } });
const reinstate = (token: string, storeId: string, reason: string) => api('POST', `/v1/operator/stores/${storeId}/reinstate`, { token, body: { reason } });

async function urlIdOf(paymentId: string): Promise<string> {
  const { db } = await testServer();
  return (await db.selectFrom('payments').select('urlId').where('id', '=', paymentId).executeTakeFirstOrThrow()).urlId;
}

describe('suspending a store', () => {
  it('stops its web-pay, direct and checkout with 403 store_suspended, shows the owner why, and reinstating restores them', async () => {
    const store = await createStore();
    const ops = await operatorToken();
    const paymentId = await createPayment(store);
    const urlId = await urlIdOf(paymentId);

    const noReason = await suspend(ops, store.storeId, ' ');
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toBe(storeMessages.reasonRequired);
    const suspended = await suspend(ops, store.storeId, 'Chargebacks under review');
    expect(suspended.status).toBe(200);
    expect(suspended.body.message).toBe(storeMessages.suspended);

    const refused = [
      await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor() }),
      await api('POST', '/v1/payment/web-pay/complete/direct', { headers: store.headers, body: { ...webPayBodyFor(), source: card() } }),
      await api('GET', `/v1/payment/${urlId}`),
      await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'store_suspended', error: paymentMessages.storeSuspended });
    }
    const { db } = await testServer();
    expect((await db.selectFrom('payments').select('paymentStatus').where('id', '=', paymentId).executeTakeFirstOrThrow()).paymentStatus).toBe('initiate');

    const seen = await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token });
    expect(seen.body.data).toMatchObject({ status: 'Suspended', statusReason: 'Chargebacks under review' });
    const activities = await api('GET', `/v1/activities?accountId=${store.account.accountId}`, { token: store.owner.token });
    expect(JSON.stringify(activities.body)).toContain('Payment gateway store suspended');

    // Only Approved → Suspended and Suspended → Approved.
    const twice = await suspend(ops, store.storeId, 'again');
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe(storeMessages.notApproved);
    const back = await reinstate(ops, store.storeId, 'Review closed, no fraud');
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ status: 'Approved', statusReason: null });
    expect((await reinstate(ops, store.storeId, 'again')).body.error).toBe(storeMessages.notSuspended);
    expect((await api('GET', `/v1/payment/${urlId}`)).status).toBe(200);
    expect((await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() })).status).toBe(200);

    const audit = await db.selectFrom('auditLog').select(['action', 'details']).where('subjectId', '=', store.storeId).where('action', 'in', ['store.suspended', 'store.reinstated']).orderBy('id').execute();
    expect(audit).toMatchObject([
      { action: 'store.suspended', details: { reason: 'Chargebacks under review', before: { status: 'Approved' }, after: { status: 'Suspended' } } },
      { action: 'store.reinstated', details: { reason: 'Review closed, no fraud' } },
    ]);
  });

  it('is for operators only, and never on a Pending store', async () => {
    const store = await createStore({ approve: false });
    expect((await suspend(store.owner.token, store.storeId, 'x')).status).toBe(404);
    expect((await api('POST', `/v1/operator/stores/${store.storeId}/suspend`, { body: { reason: 'x' } })).status).toBe(401);
    expect((await suspend(await operatorToken(), store.storeId, 'x')).status).toBe(409);
  });
});

/** The store's callback endpoint: records every request. */
let hits: { headers: IncomingMessage['headers']; body: string }[] = [];
let listener: Server;
let listenerUrl = '';
beforeAll(async () => {
  listener = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      hits.push({ headers: request.headers, body });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
});

/** Independent check of "t=<ts>,v1=<hex>" = HMAC-SHA256(storeKey, `${ts}.${body}`), with WebCrypto. */
async function signedWith(storeKey: string, header: string, body: string): Promise<boolean> {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(storeKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${match[1]}.${body}`));
  return Buffer.from(mac).toString('hex') === match[2];
}

describe('rotating a store key', () => {
  it('needs the TPIN, gives a new key at once, accepts the old one for 24 hours (both shown with "expires at") and then refuses it', async () => {
    const store = await createStore();
    const rotate = (tpin: string) => api('POST', `/v1/payment_gateway_store/${store.storeId}/rotate-key`, { token: store.owner.token, body: { tpin } });
    const wrong = await rotate(store.account.tpin === '0000' ? '1111' : '0000');
    expect(wrong.status).toBe(400);
    expect((await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token })).body.data.storeKey).toBe(store.storeKey);

    const before = Date.now();
    const rotated = await rotate(store.account.tpin);
    expect(rotated.status).toBe(200);
    expect(rotated.body.message).toBe(storeMessages.keyRotated);
    const newKey = rotated.body.data.storeKey as string;
    expect(newKey).not.toBe(store.storeKey);
    expect(rotated.body.data.previousStoreKey).toBe(store.storeKey);
    const expiresAt = Date.parse(rotated.body.data.previousStoreKeyExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + STORE_KEY_GRACE_HOURS * 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + STORE_KEY_GRACE_HOURS * 3_600_000);

    const pay = (storeKey: string) => api('POST', '/v1/payment/web-pay', { headers: { storeId: store.storeId, storeKey }, body: webPayBodyFor() });
    expect((await pay(newKey)).status).toBe(200);
    expect((await pay(store.storeKey)).status).toBe(200);
    expect((await pay(`${newKey}x`)).status).toBe(401);

    // A stranger cannot rotate it (404, as for an unknown store).
    const stranger = await createStore();
    expect((await api('POST', `/v1/payment_gateway_store/${store.storeId}/rotate-key`, { token: stranger.owner.token, body: { tpin: stranger.account.tpin } })).status).toBe(404);

    // 24 hours later (moved back in the database) the old key is refused and no longer shown.
    const { db } = await testServer();
    await db.updateTable('stores').set({ previousStoreKeyExpiresAt: new Date(Date.now() - 1000) }).where('storeId', '=', store.storeId).execute();
    const old = await pay(store.storeKey);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('invalid_store_credentials');
    expect((await pay(newKey)).status).toBe(200);
    const seen = await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token });
    expect(seen.body.data).toMatchObject({ storeKey: newKey, previousStoreKey: null, previousStoreKeyExpiresAt: null });
    const audit = await db.selectFrom('auditLog').select(['action', 'details']).where('subjectId', '=', store.storeId).where('action', '=', 'store.key_rotated').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(newKey);
  });

  it('signs callbacks with the key current when they are sent', async () => {
    const store = await createStore({ callbackURL: listenerUrl });
    const { app } = await testServer();
    const ctx = { ...app.ctx, config: { ...app.ctx.config, allowPrivateCallbacks: true } };
    const paymentId = await createPayment(store);
    // Paid (callback queued) with the old key, rotated before the callback goes out.
    expect((await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() })).status).toBe(200);
    const rotated = await api('POST', `/v1/payment_gateway_store/${store.storeId}/rotate-key`, { token: store.owner.token, body: { tpin: store.account.tpin } });
    const newKey = rotated.body.data.storeKey as string;
    const { db } = await testServer();
    const deliveries = await db.selectFrom('callbackDeliveries').select('id').where('paymentId', '=', paymentId).execute();
    hits = [];
    expect(await deliverDueCallbacks(ctx, { deliveryIds: deliveries.map((row) => row.id) })).toBe(1);
    expect(hits).toHaveLength(1);
    const signature = String(hits[0]!.headers['kestrel-signature']);
    expect(await signedWith(newKey, signature, hits[0]!.body)).toBe(true);
    expect(await signedWith(store.storeKey, signature, hits[0]!.body)).toBe(false);
  });
});

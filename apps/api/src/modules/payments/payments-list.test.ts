import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { card, createPayment, createStore } from '../../../test/gateway-fixtures.ts';

/* The payments lists page by keyset and the store tab searches and filters (issue 20, item 11). */

type Listed = { paymentId: string; orderId: string; paymentStatus: string };
const ids = (response: { body: { data: Listed[] } }) => response.body.data.map((p) => p.paymentId);

describe('payments lists, paged', () => {
  it('walk every payment once across pages of rows sharing one timestamp, for the store and the account alike, then an empty page', async () => {
    const store = await createStore();
    for (let i = 0; i < 7; i++) await createPayment(store);
    const { db } = await testServer();
    const all = await db.selectFrom('payments').select('id').where('accountId', '=', store.account.accountId).orderBy('createdAt').execute();
    await db.updateTable('payments').set({ createdAt: new Date('2026-03-04T05:06:07.089Z') }).where('id', 'in', all.slice(1, 6).map((r) => r.id)).execute();

    const whole = await api('GET', `/v1/payment/store/${store.storeId}`, { token: store.owner.token });
    const everything = ids(whole);
    expect(everything).toHaveLength(7);
    for (const [name, call] of [
      ['store', (query: string) => api('GET', `/v1/payment/store/${store.storeId}?${query}`, { token: store.owner.token })],
      ['account', (query: string) => api('POST', `/v1/payment/account?${query}`, { token: store.owner.token, body: { accountEmail: store.account.accountEmail } })],
    ] as const) {
      const seen: string[] = [];
      let cursor = '';
      for (const expected of [3, 3, 1]) {
        const page = await call(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status, name).toBe(200);
        expect(ids(page), name).toHaveLength(expected);
        seen.push(...ids(page));
        cursor = seen.at(-1)!;
      }
      expect(seen, name).toEqual(everything);
      expect(ids(await call(`limit=3&cursor=${cursor}`)), name).toEqual([]);
    }
    expect((await api('GET', `/v1/payment/store/${store.storeId}?limit=101`, { token: store.owner.token })).status).toBe(400);
    // The first test also waits for the server to start and migrate: a busy machine needs more than a minute.
  }, 180_000);

  it("never shows another owner's payments: 404 to a stranger, and a foreign cursor gives an empty page", async () => {
    const mine = await createStore();
    const theirs = await createStore();
    await createPayment(mine);
    const foreign = await createPayment(theirs);
    expect((await api('GET', `/v1/payment/store/${mine.storeId}?limit=5`, { token: theirs.owner.token })).status).toBe(404);
    expect((await api('GET', `/v1/payment/store/${mine.storeId}/summary`, { token: theirs.owner.token })).status).toBe(404);
    const crossed = await api('GET', `/v1/payment/store/${mine.storeId}?limit=5&cursor=${foreign}`, { token: mine.owner.token });
    expect(crossed.status).toBe(200);
    expect(crossed.body.data).toEqual([]);
    const searched = await api('GET', `/v1/payment/store/${mine.storeId}?q=${foreign}`, { token: mine.owner.token });
    expect(searched.body.data).toEqual([]);
    expect((await api('POST', '/v1/payment/account/summary', { token: theirs.owner.token, body: { accountEmail: mine.account.accountEmail } })).status).toBe(404);
  });

  it('the store tab finds by order ID, customer e-mail (any case) or payment ID, filters by status and by UTC day, and counts over every payment', async () => {
    const store = await createStore();
    const paid = await createPayment(store, { orderId: `PAID-${store.storeId}`, customerEmail: 'Dana.Buyer@Example.test' });
    await api('POST', `/v1/payment/complete/${paid}`, { body: card() });
    const declined = await createPayment(store);
    await api('POST', `/v1/payment/complete/${declined}`, { body: card('4000 0000 0000 0002') });
    const open = await createPayment(store);
    const { db } = await testServer();
    await db.updateTable('payments').set({ createdAt: new Date('2026-01-10T23:59:59.000Z') }).where('id', '=', open).execute();
    const list = (query: string) => api('GET', `/v1/payment/store/${store.storeId}?${query}`, { token: store.owner.token });

    expect(ids(await list(`q=PAID-${store.storeId}`))).toEqual([paid]);
    expect(ids(await list('q=dana.buyer%40example.test'))).toEqual([paid]);
    expect(ids(await list(`q=${declined}`))).toEqual([declined]);
    expect(ids(await list('q=nothing-like-this'))).toEqual([]);
    expect(ids(await list('status=success'))).toEqual([paid]);
    expect(ids(await list('status=failed'))).toEqual([declined]);
    expect(ids(await list('status=initiate'))).toEqual([open]);
    expect(ids(await list('from=2026-01-10&to=2026-01-10'))).toEqual([open]);
    expect(ids(await list('to=2026-01-09'))).toEqual([]);
    expect(ids(await list('from=2026-01-11')).sort()).toEqual([paid, declined].sort());
    expect((await list('from=10/01/2026')).status).toBe(400);
    expect((await list('status=lost')).status).toBe(400);

    const counters = await api('GET', `/v1/payment/store/${store.storeId}/summary`, { token: store.owner.token });
    expect(counters.status).toBe(200);
    expect(counters.body.data).toEqual({ all: 3, succeeded: 1, initiated: 1, failed: 1, refundCount: 0, refundedAmount: 0 });
    const accountCounters = await api('POST', '/v1/payment/account/summary', { token: store.owner.token, body: { accountEmail: store.account.accountEmail } });
    expect(accountCounters.body.data).toEqual({ all: 3, succeeded: 1, initiated: 1, failed: 1, refundCount: 0, refundedAmount: 0 });
  });
});

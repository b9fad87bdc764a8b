import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card } from '../../../test/gateway-fixtures.ts';

/* The payment-request list page a page at a time (issue 20, item 11), and its counters over every link. */

interface Owner {
  user: TestUser;
  account: TestAccount;
}

async function owner(): Promise<Owner> {
  const user = await createUser();
  return { user, account: await createAccount(user) };
}

async function createLink(o: Owner, purpose: string): Promise<{ id: string; pRequestURLId: string }> {
  const response = await api('POST', '/v1/payment-request/create', {
    token: o.user.token,
    body: {
      paymentPurpose: purpose,
      tpin: o.account.tpin,
      accountNumber: o.account.accountNumber,
      amount: { type: 'fixed', currency: 'USD', value: 12.5 },
      isUseLimit: false,
      reference: 'REF-1',
      paymentMethods: ['Card'],
    },
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.data._id as string, pRequestURLId: response.body.data.pRequestURLId as string };
}

const page = (o: Owner, query: string, token = o.user.token) => api('GET', `/v1/payment-request/account/${o.account.accountNumber}?${query}`, { token });
const summary = (o: Owner, token = o.user.token) => api('GET', `/v1/payment-request/account/${o.account.accountNumber}/summary`, { token });

describe('GET /v1/payment-request/account/{accountNumber}, paged', () => {
  it('walks every link once, newest first, across pages of links sharing one timestamp, then an empty page', async () => {
    const o = await owner();
    for (let i = 1; i <= 7; i++) await createLink(o, `Purpose ${i}`);
    // Five of the seven share one timestamp: the id must order them and carry the page boundary.
    const { db } = await testServer();
    const ids = (await db.selectFrom('paymentRequests').select('id').where('accountId', '=', o.account.accountId).orderBy('createdAt').execute()).map((r) => r.id);
    await db.updateTable('paymentRequests').set({ createdAt: new Date('2026-01-02T03:04:05.123Z') }).where('id', 'in', ids.slice(1, 6)).execute();

    const whole = await page(o, '');
    expect(whole.status).toBe(200);
    const everything = (whole.body.data as { _id: string }[]).map((link) => link._id);
    expect(everything).toHaveLength(7);
    expect(everything[0]).toBe(ids[6]);

    const seen: string[] = [];
    let cursor = '';
    for (const expected of [3, 3, 1]) {
      const response = await page(o, `limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      const items = (response.body.data as { _id: string }[]).map((link) => link._id);
      expect(items).toHaveLength(expected);
      seen.push(...items);
      cursor = items.at(-1)!;
    }
    expect(seen).toEqual(everything);
    expect(new Set(seen).size).toBe(7);
    expect((await page(o, `limit=3&cursor=${cursor}`)).body.data).toEqual([]);
    expect((await page(o, 'limit=101')).status).toBe(400);
    expect((await page(o, 'cursor=not-a-uuid')).status).toBe(400);
  });

  it("never shows another account's links: a stranger is 404 and another account's cursor gives an empty page", async () => {
    const o = await owner();
    const other = await owner();
    await createLink(o, 'Mine');
    const theirs = await createLink(other, 'Theirs');
    expect((await page(o, 'limit=5', other.user.token)).status).toBe(404);
    const crossed = await page(o, `limit=5&cursor=${theirs.id}`);
    expect(crossed.status).toBe(200);
    expect(crossed.body.data).toEqual([]);
    expect((await summary(o, other.user.token)).status).toBe(404);
  });

  it('counts Total Request, Active Request and Total Payments over every link and payment, not over a page', async () => {
    const o = await owner();
    const links = [];
    for (let i = 1; i <= 4; i++) links.push(await createLink(o, `Counted ${i}`));
    const off = await api('PATCH', `/v1/payment-request/update/${links[0]!.id}`, { token: o.user.token, body: { status: 'inactive' } });
    expect(off.status).toBe(200);
    for (const link of [links[1]!, links[1]!, links[3]!]) {
      const paid = await api('POST', `/v1/payment-request/card/complete-payment/${link.pRequestURLId}`, {
        body: { ...card(), email: 'visitor@example.test', amount: 12.5, cardHolderName: 'Vera Visitor' },
      });
      expect(paid.status).toBe(200);
    }
    // A declined card is no payment.
    const declined = await api('POST', `/v1/payment-request/card/complete-payment/${links[2]!.pRequestURLId}`, {
      body: { ...card('4000 0000 0000 0002'), email: 'visitor@example.test', amount: 12.5, cardHolderName: 'Vera Visitor' },
    });
    expect(declined.status).toBe(402);

    const counters = await summary(o);
    expect(counters.status).toBe(200);
    expect(counters.body.data).toEqual({ total: 4, active: 3, payments: 3, refundCount: 0, refundedAmount: 0 });
    expect((await page(o, 'limit=2')).body.data).toHaveLength(2);

    const empty = await owner();
    expect((await summary(empty)).body.data).toEqual({ total: 0, active: 0, payments: 0, refundCount: 0, refundedAmount: 0 });
  });
});

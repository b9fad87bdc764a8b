import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { operatorToken } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { bangladeshBank, createHolder, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { verifyLedger } from '../ledger/verify.ts';

type Holder = { user: TestUser; account: TestAccount };

async function balanceCents(h: Holder): Promise<number> {
  const response = await api('GET', `/v1/account/${h.account.accountNumber}`, { token: h.user.token });
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

async function withdraw(h: Holder, amount: number | string): Promise<string> {
  const response = await withdrawAs(h, amount, { body: bangladeshBank });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data._id;
}

const cancel = (h: Holder, id: string, tpin: string = h.account.tpin, key?: string) =>
  api('POST', `/v1/bank-withdraw/cancel/${id}`, { token: h.user.token, body: { tpin }, headers: key ? { 'idempotency-key': key } : {} });
const wrongTpin = (h: Holder) => String((Number(h.account.tpin) + 1) % 10_000).padStart(4, '0');
const processing = (ops: string, id: string) => api('POST', `/v1/operator/withdrawals/${id}/processing`, { token: ops });

describe('POST /v1/bank-withdraw/cancel/{id}', () => {
  it('cancels a Pending withdrawal: the held money is back, the row reads Cancelled, the operator queue drops it', async () => {
    const ops = await operatorToken();
    const h = await createHolder(10_000);
    const id = await withdraw(h, '33.33');
    expect(await balanceCents(h)).toBe(6_667);

    const cancelled = await cancel(h, id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe('Withdrawal cancelled; the money is back in your wallet');
    expect(cancelled.body.data).toMatchObject({ _id: id, status: 'Cancelled', failureReason: null, bankAccountNumber: '****6789' });
    expect(await balanceCents(h)).toBe(10_000);

    const list = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: h.user.token });
    expect(list.body.data[0]).toMatchObject({ _id: id, status: 'Cancelled' });
    const pendingQueue = await api('GET', '/v1/operator/withdrawals?status=Pending', { token: ops });
    expect(pendingQueue.body.data.map((w: { _id: string }) => w._id)).not.toContain(id);
    const moved = await processing(ops, id);
    expect(moved.status).toBe(409);
    expect(moved.body.error).toBe('This withdrawal is Cancelled; it cannot be marked Processing');

    const again = await cancel(h, id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('This withdrawal is Cancelled; it cannot be cancelled');
    expect(await balanceCents(h)).toBe(10_000);

    const transactions = await api('GET', `/v1/transaction/account/${h.account.accountNumber}`, { token: h.user.token });
    const purposes = (transactions.body.data as { transactions: { transactionFor: string; amount: number }[] }[]).flatMap((g) => g.transactions.map((t) => `${t.transactionFor} ${t.amount}`));
    expect(purposes).toEqual(['Bank Withdraw Cancelled 33.33', 'Bank Withdraw 33.33', 'Test funding 100']);
    const activities = JSON.stringify((await api('GET', `/v1/activities?accountId=${h.account.accountId}`, { token: h.user.token })).body);
    expect(activities).toContain('Bank withdrawal cancelled');
    expect((await verifyLedger((await testServer()).db)).problems).toEqual([]);
  });

  it('is refused once an operator has moved it to Processing, and the money stays held', async () => {
    const ops = await operatorToken();
    const h = await createHolder(10_000);
    const id = await withdraw(h, 40);
    expect((await processing(ops, id)).status).toBe(200);
    const refused = await cancel(h, id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('withdrawal_status_conflict');
    expect(refused.body.error).toBe('This withdrawal is Processing; it cannot be cancelled');
    expect(await balanceCents(h)).toBe(6_000);
  });

  it('needs the TPIN: a wrong one is counted, five lock money movement, and nothing moves', async () => {
    const h = await createHolder(10_000);
    const id = await withdraw(h, 10);
    const missing = await api('POST', `/v1/bank-withdraw/cancel/${id}`, { token: h.user.token, body: {} });
    expect(missing.status).toBe(400);
    const wrong = await cancel(h, id, wrongTpin(h));
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('tpin_incorrect');
    expect(wrong.body.error).toBe('Incorrect TPIN. 4 attempts left before money movement is locked.');
    for (let i = 0; i < 4; i++) await cancel(h, id, wrongTpin(h));
    const locked = await cancel(h, id);
    expect(locked.status).toBe(423);
    expect(await balanceCents(h)).toBe(9_000);
    const details = await api('GET', `/v1/bank-withdraw/details/${id}`, { token: h.user.token });
    expect(details.body.data.status).toBe('Pending');
  });

  it("is 404 for anyone else's withdrawal and for unknown ids, and 401 without a token", async () => {
    const h = await createHolder(10_000);
    const id = await withdraw(h, 5);
    const stranger = await createHolder(10_000);
    const theirs = await api('POST', `/v1/bank-withdraw/cancel/${id}`, { token: stranger.user.token, body: { tpin: stranger.account.tpin } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('Withdrawal not found');
    expect((await cancel(h, randomUUID())).status).toBe(404);
    expect((await api('POST', `/v1/bank-withdraw/cancel/${id}`, { body: { tpin: h.account.tpin } })).status).toBe(401);
    expect((await api('GET', `/v1/bank-withdraw/details/${id}`, { token: stranger.user.token })).status).toBe(404);
    expect(await balanceCents(h)).toBe(9_500);
  });

  it('with an Idempotency-Key returns the money once, however often and however concurrently it is sent', async () => {
    const h = await createHolder(10_000);
    const id = await withdraw(h, 12);
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => cancel(h, id, h.account.tpin, key)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const replay = await cancel(h, id, h.account.tpin, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.status).toBe('Cancelled');
    expect(await balanceCents(h)).toBe(10_000);
  });

  it("racing an operator's Processing: exactly one wins and the money moves once", async () => {
    const ops = await operatorToken();
    const h = await createHolder(100_000);
    for (let round = 0; round < 6; round++) {
      const before = await balanceCents(h);
      const id = await withdraw(h, 10);
      const [cancelled, moved] = await Promise.all([cancel(h, id), processing(ops, id)]);
      expect([cancelled.status, moved.status].sort()).toEqual([200, 409]);
      const details = await api('GET', `/v1/bank-withdraw/details/${id}`, { token: h.user.token });
      expect(details.body.data.status).toBe(cancelled.status === 200 ? 'Cancelled' : 'Processing');
      expect(await balanceCents(h)).toBe(cancelled.status === 200 ? before : before - 1_000);
    }
    expect((await verifyLedger((await testServer()).db)).problems).toEqual([]);
  });
});

describe('GET /v1/bank-withdraw/details/{id}', () => {
  it('shows bank, branch, masked account number and the status history, oldest first', async () => {
    const ops = await operatorToken();
    const h = await createHolder(10_000);
    const id = await withdraw(h, 20);
    await processing(ops, id);
    await api('POST', `/v1/operator/withdrawals/${id}/fail`, { token: ops, body: { reason: 'Bank account closed' } });
    const details = await api('GET', `/v1/bank-withdraw/details/${id}`, { token: h.user.token });
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ bankName: 'Dhaka Test Bank', branchName: 'Gulshan', accountType: null, bankAccountNumber: '****6789', status: 'Failed', failureReason: 'Bank account closed' });
    expect(JSON.stringify(details.body)).not.toContain('000123456789');
    const history = details.body.data.history as { status: string; at: string }[];
    expect(history.map((step) => step.status)).toEqual(['Pending', 'Processing', 'Failed']);
    expect([...history.map((s) => s.at)].sort()).toEqual(history.map((s) => s.at));
  });
});

describe('GET /v1/bank-withdraw/account/{accountNumber}, paged', () => {
  const page = (h: Holder, query: string, token = h.user.token) => api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}?${query}`, { token });

  it('walks every withdrawal once, newest first, across pages of rows sharing one timestamp, then an empty page', async () => {
    const h = await createHolder(100_000);
    for (let i = 1; i <= 7; i++) await withdraw(h, i);
    // Five of the seven share one timestamp: the id must order them and carry the page boundary.
    const { db } = await testServer();
    const same = new Date('2026-01-02T03:04:05.123Z');
    const ids = (await db.selectFrom('bankWithdrawals').select('id').where('accountId', '=', h.account.accountId).orderBy('createdAt').execute()).map((r) => r.id);
    await db.updateTable('bankWithdrawals').set({ createdAt: same }).where('id', 'in', ids.slice(1, 6)).execute();

    const whole = await page(h, '');
    expect(whole.status).toBe(200);
    const everything = (whole.body.data as { _id: string }[]).map((w) => w._id);
    expect(everything).toHaveLength(7);

    const seen: string[] = [];
    let cursor = '';
    for (const expected of [3, 3, 1]) {
      const response = await page(h, `limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      const items = (response.body.data as { _id: string }[]).map((w) => w._id);
      expect(items).toHaveLength(expected);
      seen.push(...items);
      cursor = items.at(-1)!;
    }
    expect(seen).toEqual(everything);
    expect(new Set(seen).size).toBe(7);
    expect((await page(h, `limit=3&cursor=${cursor}`)).body.data).toEqual([]);
    expect((await page(h, 'limit=101')).status).toBe(400);
  });

  it("never shows another account's rows: a stranger is 404 and another account's cursor gives an empty page", async () => {
    const h = await createHolder(10_000);
    const other = await createHolder(10_000);
    await withdraw(h, 1);
    const theirs = await withdraw(other, 2);
    expect((await page(h, 'limit=5', other.user.token)).status).toBe(404);
    const crossed = await page(h, `limit=5&cursor=${theirs}`);
    expect(crossed.status).toBe(200);
    expect(crossed.body.data).toEqual([]);
    expect((await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}/summary`, { token: other.user.token })).status).toBe(404);
  });

  it('counts Completed, Pending (with Processing), Total and Failed over every withdrawal, not over a page', async () => {
    const ops = await operatorToken();
    const h = await createHolder(100_000);
    const ids: string[] = [];
    for (const amount of [1, 2, 3, 4, 5, 6]) ids.push(await withdraw(h, amount));
    await processing(ops, ids[0]!);
    await api('POST', `/v1/operator/withdrawals/${ids[0]}/complete`, { token: ops });
    await processing(ops, ids[1]!);
    await api('POST', `/v1/operator/withdrawals/${ids[1]}/fail`, { token: ops, body: { reason: 'closed' } });
    await processing(ops, ids[2]!);
    await cancel(h, ids[3]!);
    const summary = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}/summary`, { token: h.user.token });
    expect(summary.status).toBe(200);
    expect(summary.body.data).toEqual({ completed: 1, pending: 3, total: 6, failed: 1 });
    expect((await page(h, 'limit=2')).body.data).toHaveLength(2);
  });
});

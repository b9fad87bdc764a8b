import { CHART_DAYS, type AccountChart, type OperatorChart, type PaymentChart } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { createHolder, createOperator, createUser, unique } from '../../../test/factories.ts';
import { card, createPayment, createStore, type TestStore } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';
import { storePaymentChart } from '../payments/payment-chart.ts';
import { accountChartOf } from './dashboard-chart.ts';

/*
 * The charts (issue 26): the dashboard's balance and money in / out, a store's payments per day
 * with its success rate, the operator's payments and callback queue. Every figure comes from
 * movements made through the API, checked to the cent; the days are UTC days, today last.
 */

const DAY_MS = 86_400_000;
const utcDay = (time: Date) => time.toISOString().slice(0, 10);
const DECLINED = '4000 0000 0000 0002';

function transfer(from: Awaited<ReturnType<typeof createHolder>>, toUserName: string, amount: number) {
  return api('POST', '/v1/account/transfer_balance', {
    token: from.user.token,
    headers: { 'idempotency-key': unique('tk') },
    body: { userId: from.user.userId, debitAccountKey: from.account.userName, creditAccountKey: toUserName, currency: 'USD', balance: amount, tpin: Number(from.account.tpin) },
  });
}

async function payByCard(store: TestStore, amount: number, number = '4242 4242 4242 4242') {
  const paymentId = await createPayment(store, { amount });
  return { paymentId, answer: await api('POST', `/v1/payment/complete/${paymentId}`, { body: card(number) }) };
}

describe('GET /v1/account/{key}/chart', () => {
  it("draws the wallet's closing balance and money in / out per UTC day from the ledger, to the cent", async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const sent = await transfer(alice, bob.account.userName, 25.5);
    expect(sent.status).toBe(200);

    const answer = await api<{ data: AccountChart }>('GET', `/v1/account/${alice.account.accountNumber}/chart`, { token: alice.user.token });
    expect(answer.status).toBe(200);
    const chart = answer.body.data;
    expect(chart.days).toBe(CHART_DAYS);
    expect(chart.series.map((series) => series.currency)).toEqual(['USD']);
    const days = chart.series[0]!.days;
    expect(days).toHaveLength(30);
    const today = utcDay(new Date());
    expect(days[29]!.day).toBe(today);
    expect(days[0]!.day).toBe(utcDay(new Date(Date.parse(`${today}T00:00:00Z`) - 29 * DAY_MS)));
    // Funded 100.00 and sent 25.50 today; nothing before.
    expect(days[29]).toEqual({ day: today, closingBalance: 74.5, moneyIn: 100, moneyOut: 25.5 });
    expect(days.slice(0, 29).every((day) => day.closingBalance === 0 && day.moneyIn === 0 && day.moneyOut === 0)).toBe(true);
    expect(days[29]!.closingBalance * 100).toBe(await walletCents(alice.account.accountId));

    const bobChart = await api<{ data: AccountChart }>('GET', `/v1/account/${bob.account.userName}/chart`, { token: bob.user.token });
    expect(bobChart.body.data.series[0]!.days[29]).toEqual({ day: today, closingBalance: 25.5, moneyIn: 25.5, moneyOut: 0 });
  });

  it("counts a store's payment less its fee as money in, and a declined card as nothing", async () => {
    const store = await createStore();
    expect((await payByCard(store, 40)).answer.status).toBe(200);
    expect((await payByCard(store, 12.34, DECLINED)).answer.status).toBe(402);
    const answer = await api<{ data: AccountChart }>('GET', `/v1/account/${store.account.accountNumber}/chart`, { token: store.owner.token });
    // 40.00 less the 2 % fee (0.80).
    expect(answer.body.data.series[0]!.days[29]).toMatchObject({ closingBalance: 39.2, moneyIn: 39.2, moneyOut: 0 });
  });

  it('puts each movement on its UTC day and carries the closing balance over quiet days', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    expect((await transfer(alice, bob.account.userName, 0.01)).status).toBe(200);
    const { app } = await testServer();
    // Drawn three days from now: today's movements are the 27th of 30 days, the days after keep its balance.
    const later = await accountChartOf(app.ctx, alice.user.userId, alice.account.accountNumber, new Date(Date.now() + 3 * DAY_MS));
    const days = later.series[0]!.days;
    expect(days).toHaveLength(30);
    expect(days[26]).toMatchObject({ day: utcDay(new Date()), closingBalance: 99.99, moneyIn: 100, moneyOut: 0.01 });
    expect(days.slice(27)).toEqual([1, 2, 3].map((ahead) => ({ day: utcDay(new Date(Date.now() + ahead * DAY_MS)), closingBalance: 99.99, moneyIn: 0, moneyOut: 0 })));
    // Drawn 40 days from now, today is before the period: every day opens and closes on the balance.
    const muchLater = await accountChartOf(app.ctx, alice.user.userId, alice.account.accountNumber, new Date(Date.now() + 40 * DAY_MS));
    expect(muchLater.series[0]!.days.every((day) => day.closingBalance === 99.99 && day.moneyIn === 0 && day.moneyOut === 0)).toBe(true);
  });

  it("answers another user's account the counters' 404, and a stranger 401", async () => {
    const alice = await createHolder(500);
    const mallory = await createHolder();
    const chart = await api('GET', `/v1/account/${alice.account.accountNumber}/chart`, { token: mallory.user.token });
    const summary = await api('GET', `/v1/account/${alice.account.accountNumber}/summary`, { token: mallory.user.token });
    expect(chart.status).toBe(404);
    expect(chart.body).toEqual(summary.body);
    expect(chart.body).toEqual({ status: 'error', error: 'Account not available!', code: 'account_not_found' });
    expect((await api('GET', `/v1/account/${alice.account.accountNumber}/chart`)).status).toBe(401);
  });
});

describe('GET /v1/payment/store/{storeId}/chart', () => {
  it('counts paid payments and refused attempts per day, the volume to the cent and paid ÷ attempted', async () => {
    const store = await createStore();
    expect((await payByCard(store, 40)).answer.status).toBe(200);
    // A card declined, then the same payment paid with another card: two attempts, one paid.
    const retried = await payByCard(store, 12.34, DECLINED);
    expect(retried.answer.status).toBe(402);
    expect((await api('POST', `/v1/payment/complete/${retried.paymentId}`, { body: card() })).status).toBe(200);
    expect((await payByCard(store, 5, DECLINED)).answer.status).toBe(402);
    await createPayment(store, { amount: 7 }); // created, never tried: no attempt

    const answer = await api<{ data: PaymentChart }>('GET', `/v1/payment/store/${store.storeId}/chart`, { token: store.owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data.days).toBe(30);
    expect(answer.body.data.series).toHaveLength(1);
    const series = answer.body.data.series[0]!;
    expect(series).toMatchObject({ currency: 'USD', paidCount: 2, paidVolume: 52.34, failedCount: 2, successRate: 0.5 });
    expect(series.days).toHaveLength(30);
    expect(series.days[29]).toEqual({ day: utcDay(new Date()), paidCount: 2, paidVolume: 52.34, failedCount: 2 });
    expect(series.days.slice(0, 29).every((day) => day.paidCount === 0 && day.paidVolume === 0 && day.failedCount === 0)).toBe(true);

    // Another store's payments are not this store's.
    const other = await createStore();
    expect((await payByCard(other, 1)).answer.status).toBe(200);
    const again = await api<{ data: PaymentChart }>('GET', `/v1/payment/store/${store.storeId}/chart`, { token: store.owner.token });
    expect(again.body.data.series[0]!.paidCount).toBe(2);
  });

  it('answers a store with no payment no series, and shifts today to its place as days pass', async () => {
    const store = await createStore();
    const empty = await api<{ data: PaymentChart }>('GET', `/v1/payment/store/${store.storeId}/chart`, { token: store.owner.token });
    expect(empty.body.data).toEqual({ days: 30, series: [] });

    expect((await payByCard(store, 3.33, DECLINED)).answer.status).toBe(402);
    const { app } = await testServer();
    const later = await storePaymentChart(app.ctx, store.owner.userId, store.storeId, new Date(Date.now() + DAY_MS));
    expect(later.series[0]).toMatchObject({ paidCount: 0, paidVolume: 0, failedCount: 1, successRate: 0 });
    expect(later.series[0]!.days[28]).toEqual({ day: utcDay(new Date()), paidCount: 0, paidVolume: 0, failedCount: 1 });
  });

  it("answers another user's store the store routes' 404", async () => {
    const store = await createStore();
    const mallory = await createUser();
    const chart = await api('GET', `/v1/payment/store/${store.storeId}/chart`, { token: mallory.token });
    const summary = await api('GET', `/v1/payment/store/${store.storeId}/summary`, { token: mallory.token });
    expect(chart.status).toBe(404);
    expect(chart.body).toEqual(summary.body);
    expect(chart.body).toMatchObject({ error: 'Store not found', code: 'store_not_found' });
    expect((await api('GET', '/v1/payment/store/no-such-store/chart', { token: store.owner.token })).status).toBe(404);
  });
});

describe('GET /v1/operator/charts', () => {
  it("adds every store's and link's payments to the day, and counts the callback backlog", async () => {
    const operator = await createOperator();
    const read = async () => {
      const answer = await api<{ data: OperatorChart }>('GET', '/v1/operator/charts', { token: operator.token });
      expect(answer.status).toBe(200);
      return answer.body.data;
    };
    const before = await read();
    const store = await createStore();
    expect((await payByCard(store, 21.07)).answer.status).toBe(200);
    expect((await payByCard(store, 2, DECLINED)).answer.status).toBe(402);
    const after = await read();

    const today = (chart: OperatorChart) => chart.series.find((series) => series.currency === 'USD')?.days[29] ?? { paidCount: 0, paidVolume: 0, failedCount: 0 };
    // Other test files share the database, so others' payments may land in between: at least ours.
    expect(today(after).paidCount - today(before).paidCount).toBeGreaterThanOrEqual(1);
    expect(Math.round((today(after).paidVolume - today(before).paidVolume) * 100)).toBeGreaterThanOrEqual(2107);
    expect(today(after).failedCount - today(before).failedCount).toBeGreaterThanOrEqual(1);
    // The paid payment queued the store's callback (no worker sends it in this server).
    expect(after.callbackBacklog).toBeGreaterThanOrEqual(before.callbackBacklog + 1);

    const usd = after.series.find((series) => series.currency === 'USD')!;
    expect(usd.days).toHaveLength(30);
    expect(usd.days[29]!.day).toBe(utcDay(new Date()));
    expect(usd.paidCount).toBe(usd.days.reduce((sum, day) => sum + day.paidCount, 0));
    expect(usd.failedCount).toBe(usd.days.reduce((sum, day) => sum + day.failedCount, 0));
    expect(usd.successRate).toBeCloseTo(usd.paidCount / (usd.paidCount + usd.failedCount), 4);
  });

  it('answers a plain user 404 and a stranger 401', async () => {
    const user = await createUser();
    expect((await api('GET', '/v1/operator/charts', { token: user.token })).status).toBe(404);
    expect((await api('GET', '/v1/operator/charts')).status).toBe(401);
  });
});

import { checkoutMessages, messages, paymentMessages, TPIN_MAX_FAILED_ATTEMPTS } from '@kestrel/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { postingsOf, walletCents } from '../../../test/ledger-fixtures.ts';
import { createAccount, createUser, fundAccount, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createStore, webPayBodyFor, type TestStore } from '../../../test/gateway-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';

/** A payment through the gateway API; answers its id and urlId. */
async function newPayment(store: TestStore, overrides: Record<string, unknown> = {}) {
  const response = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor(overrides) });
  expect(response.status).toBe(200);
  return { paymentId: response.body.data.paymentId as string, urlId: response.body.data.urlId as string };
}

let store: TestStore;
let payer: TestUser;
let wallet: TestAccount;
beforeAll(async () => {
  store = await createStore();
  payer = await createUser();
  wallet = await createAccount(payer);
  await fundAccount(wallet.accountId, 100_000);
});

describe('GET /v1/payment/{urlId}', () => {
  it('shows the checkout only what it needs, with no login', async () => {
    const { paymentId, urlId } = await newPayment(store, { amount: 12 });
    const response = await api('GET', `/v1/payment/${urlId}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data).sort()).toEqual(
      ['amount', 'cancelUrl', 'currency', 'orderId', 'paidAt', 'paymentId', 'paymentSource', 'paymentStatus', 'productName', 'redirectUrl', 'storeLogo', 'storeName', 'transactionId'].sort(),
    );
    expect(response.body.data).toMatchObject({ paymentId, amount: 12, currency: 'USD', paymentStatus: 'initiate', cancelUrl: 'https://shop.example.test/cart', redirectUrl: null });
    // What is being bought, before paying; nothing of a payment that has not happened.
    expect(response.body.data).toMatchObject({ productName: 'Bike bell', transactionId: null, paidAt: null, paymentSource: null });
    expect(response.body.data.orderId).toEqual(expect.any(String));
    expect(JSON.stringify(response.body)).not.toContain('carol@example.test');
    expect(JSON.stringify(response.body)).not.toContain(store.storeKey);
    const logo = await api('GET', response.body.data.storeLogo as string);
    expect(logo.status).toBe(200);
  });

  it('answers 404 for an unknown urlId', async () => {
    const response = await api('GET', '/v1/payment/not-a-real-url-id');
    expect(response.status).toBe(404);
    expect(response.body.error).toBe(paymentMessages.notFound);
  });

  it('shows a paid payment as success with the signed return address', async () => {
    const { paymentId, urlId } = await newPayment(store);
    expect((await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() })).status).toBe(200);
    const response = await api('GET', `/v1/payment/${urlId}`);
    expect(response.body.data.paymentStatus).toBe('success');
    expect(response.body.data.redirectUrl).toMatch(/^https:\/\/shop\.example\.test\/kestrel\/callback\?.*signature=/);
  });

  it("gives a paid payment's receipt: transaction ID, time and the masked card", async () => {
    const { paymentId, urlId } = await newPayment(store);
    const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() });
    expect(paid.status).toBe(200);
    const response = await api('GET', `/v1/payment/${urlId}`);
    expect(response.body.data.transactionId).toBe(paid.body.data.tnxId);
    expect(Date.parse(response.body.data.paidAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(response.body.data.paymentSource).toEqual({ type: 'card', brand: 'visa', number: '424242******4242' });
  });
});

describe('POST /v1/payment/complete/kestrel/{paymentId}', () => {
  it('pays from the wallet in one ledger transaction: payer → owner less the fee → fee revenue', async () => {
    const { paymentId, urlId } = await newPayment(store, { amount: 25.5 });
    const before = { payer: await walletCents(wallet.accountId), owner: await walletCents(store.account.accountId) };
    const response = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { userId: payer.userId, accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: paymentMessages.success, data: { paymentStatus: 'success', amount: 25.5, paymentId } });
    expect(response.body.redirectUrl).toMatch(/^https:\/\/shop\.example\.test\/kestrel\/callback\?/);
    // 2 % of 25.50 = 0.51
    expect(await walletCents(wallet.accountId)).toBe(before.payer - 2550);
    expect(await walletCents(store.account.accountId)).toBe(before.owner + 2550 - 51);
    expect(await postingsOf(response.body.data.tnxId as string)).toEqual(
      ([[wallet.accountId, -2550], [store.account.accountId, 2499], ['fee_revenue', 51]] as [string, number][]).sort(),
    );

    const seen = await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers });
    expect(seen.body.data).toMatchObject({ paymentStatus: 'success', paymentSourceType: 'wallet', fee: { amount: 0.51, currency: 'USD' } });
    expect(seen.body.data.paymentSource.number).toBe(`****${wallet.accountNumber.slice(-4)}`);
    expect((await api('GET', `/v1/payment/${urlId}`)).body.data.paymentStatus).toBe('success');

    const again = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_paid');
    expect(await walletCents(wallet.accountId)).toBe(before.payer - 2550);
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('needs a signed-in caller who owns the account', async () => {
    const { paymentId } = await newPayment(store);
    const body = { accountNumber: wallet.accountNumber, tpin: wallet.tpin };
    expect((await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { body })).status).toBe(401);
    const stranger = await createUser();
    const foreign = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: stranger.token, body });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(messages.portal.accountNotAvailable);
    const impersonating = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { ...body, userId: stranger.userId } });
    expect(impersonating.status).toBe(403);
    const own = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: store.owner.token, body: { accountNumber: store.account.accountNumber, tpin: store.account.tpin } });
    expect(own.status).toBe(400);
    expect(own.body.error).toBe(checkoutMessages.ownStore);
    expect((await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers })).body.data.paymentStatus).toBe('initiate');
  });

  it('refuses bad input, a wrong TPIN (counted, then locked) and a short balance, moving nothing', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    await fundAccount(account.accountId, 1_000);
    const { paymentId } = await newPayment(store, { amount: 20 });
    const call = (body: Record<string, unknown>) => api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: user.token, body });
    const short = await call({ accountNumber: account.accountNumber, tpin: account.tpin });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Insufficient balance');
    const noTpin = await call({ accountNumber: account.accountNumber, tpin: '' });
    expect(noTpin.status).toBe(400);
    expect(noTpin.body.error).toBe(checkoutMessages.tpinRequired);
    const badTpin = await call({ accountNumber: account.accountNumber, tpin: '12a4' });
    expect(badTpin.body.error).toBe(checkoutMessages.tpinInvalid);
    expect((await call({ tpin: account.tpin })).status).toBe(400);
    expect((await api('POST', '/v1/payment/complete/kestrel/00000000-0000-4000-8000-000000000000', { token: user.token, body: { accountNumber: account.accountNumber, tpin: account.tpin } })).status).toBe(404);

    await fundAccount(account.accountId, 5_000);
    const wrong = account.tpin === '0000' ? '1111' : '0000';
    for (let attempt = 1; attempt < TPIN_MAX_FAILED_ATTEMPTS; attempt += 1) {
      const refused = await call({ accountNumber: account.accountNumber, tpin: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('tpin_incorrect');
    }
    expect((await call({ accountNumber: account.accountNumber, tpin: wrong })).status).toBe(423);
    const locked = await call({ accountNumber: account.accountNumber, tpin: account.tpin });
    expect(locked.status).toBe(423);
    expect(locked.body.error).toBe(messages.tpin.locked);
    expect(await walletCents(account.accountId)).toBe(6_000);
  });

  it('pays at most once when the wallet and cards race, and replays an Idempotency-Key', async () => {
    const { paymentId } = await newPayment(store, { amount: 10 });
    const before = await walletCents(wallet.accountId);
    const walletPay = (key: string) =>
      api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, headers: { 'idempotency-key': key }, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, index) => walletPay(`race-${paymentId}-${index}`)),
      ...Array.from({ length: 4 }, () => api('POST', `/v1/payment/complete/${paymentId}`, { body: card() })),
    ]);
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    for (const result of results.filter((candidate) => candidate.status !== 200)) expect(result.status).toBe(409);
    const walletWon = results.slice(0, 4).some((result) => result.status === 200);
    expect(await walletCents(wallet.accountId)).toBe(walletWon ? before - 1000 : before);

    if (walletWon) {
      const index = results.slice(0, 4).findIndex((result) => result.status === 200);
      const replay = await walletPay(`race-${paymentId}-${index}`);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await walletCents(wallet.accountId)).toBe(before - 1000);
    }
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('refuses a payment whose fee is too high', async () => {
    const { db } = await testServer();
    const { paymentId } = await newPayment(store, { amount: 1 });
    await db.updateTable('accounts').set({ gatewayFeeFixedCents: 100 }).where('id', '=', store.account.accountId).execute();
    try {
      const response = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: paymentMessages.feeTooHigh, code: 'fee_too_high' });
    } finally {
      await db.updateTable('accounts').set({ gatewayFeeFixedCents: 0 }).where('id', '=', store.account.accountId).execute();
    }
  });
});

import { paymentMessages } from '@kestrel/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser, fundAccount } from '../../../test/factories.ts';
import { card, createPayment, createStore, type TestStore } from '../../../test/gateway-fixtures.ts';
import { countedCall } from '../../../test/statements.ts';
import { tpinMac } from '../accounts/tpin.ts';
import { hashSecret } from '../../security/passwords.ts';

/*
 * Paying a payment by card is three database statements (issue 21; it was seven): one that
 * reads the payment with its store, the Idempotency-Key's earlier answer and the decline
 * counts and takes the attempt's lease; the card processor's own record of the charge; one
 * collect_post call. Paying it from a wallet is three (it was seven): the payer's account, the
 * payment with its store and the key's earlier answer, collect_post (which checks the TPIN
 * under the payer's row lock); four when the request carries a step-up code (the TPIN is then
 * checked first, on its own, so a wrong one costs no code try).
 * Paying a payment-request link by card is four (it was six): the link with the key's
 * earlier answer, the held use, the processor's record, collect_post. Counted at the driver,
 * with the answers a payer sees unchanged.
 */

let store: TestStore;
beforeAll(async () => {
  store = await createStore();
});

const counted = (path: string, options: Parameters<typeof api>[2]) => countedCall('POST', path, options);

const isLeaseHold = (text: string) => /^\s*with "leased" as \(update "payments" set "attempt_lease_until"/i.test(text);
const processorRecord = (text: string) => /sandbox_processor_records/i.test(text);
const isCollectPost = (text: string) => text.includes('FROM collect_post(');

async function leaseOf(paymentId: string): Promise<Date | null> {
  const { db } = await testServer();
  const row = await db.selectFrom('payments').select('attemptLeaseUntil').where('id', '=', paymentId).executeTakeFirstOrThrow();
  return row.attemptLeaseUntil;
}

describe('paying a payment by card', () => {
  it('is three statements: the hold, the processor\'s record, collect_post; a replay is one, another request with the key one', async () => {
    const paymentId = await createPayment(store);
    const paid = await counted(`/v1/payment/complete/${paymentId}`, { headers: { 'idempotency-key': 'pay-once' }, body: card() });
    expect(paid.response.status).toBe(200);
    expect(paid.response.body).toMatchObject({ status: 'success', message: paymentMessages.success, data: { paymentStatus: 'success', paymentId } });
    expect(paid.texts).toHaveLength(3);
    expect(isLeaseHold(paid.texts[0]!)).toBe(true);
    expect(processorRecord(paid.texts[1]!)).toBe(true);
    expect(isCollectPost(paid.texts[2]!)).toBe(true);

    const replay = await counted(`/v1/payment/complete/${paymentId}`, { headers: { 'idempotency-key': 'pay-once' }, body: card() });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.response.body.data).toEqual(paid.response.body.data);
    expect(replay.response.body.redirectUrl).toBe(paid.response.body.redirectUrl);
    expect(replay.texts).toHaveLength(1);

    const otherCard = await counted(`/v1/payment/complete/${paymentId}`, { headers: { 'idempotency-key': 'pay-once' }, body: card('5555 5555 5555 4444') });
    expect(otherCard.response.status).toBe(422);
    expect(otherCard.response.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect(otherCard.texts).toHaveLength(1);

    const again = await counted(`/v1/payment/complete/${paymentId}`, { headers: { 'idempotency-key': 'pay-twice' }, body: card() });
    expect(again.response.status).toBe(409);
    expect(again.response.body).toMatchObject({ code: 'already_paid', error: paymentMessages.alreadyPaid });
  });

  it('refuses a suspended store\'s payment from the same statement, taking no lease', async () => {
    const { db } = await testServer();
    const suspended = await createStore();
    const paymentId = await createPayment(suspended);
    await db.updateTable('stores').set({ status: 'Suspended', statusReason: 'Chargebacks under review' }).where('storeId', '=', suspended.storeId).execute();
    const refused = await counted(`/v1/payment/complete/${paymentId}`, { body: card() });
    expect(refused.response.status).toBe(403);
    expect(refused.response.body).toMatchObject({ code: 'store_suspended', error: paymentMessages.storeSuspended });
    expect(refused.texts).toHaveLength(1);
    expect(await leaseOf(paymentId)).toBeNull();
  });

  it('refuses while another attempt holds the lease, leaving that lease as it was', async () => {
    const { db } = await testServer();
    const paymentId = await createPayment(store);
    const held = new Date(Date.now() + 60_000);
    await db.updateTable('payments').set({ attemptLeaseUntil: held }).where('id', '=', paymentId).execute();
    const refused = await counted(`/v1/payment/complete/${paymentId}`, { body: card() });
    expect(refused.response.status).toBe(409);
    expect(refused.response.body).toMatchObject({ code: 'attempt_in_progress', error: paymentMessages.attemptInProgress });
    // Retry-After: the seconds until the other attempt's hold ends.
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(Number(refused.response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.texts).toHaveLength(1);
    expect((await leaseOf(paymentId))?.getTime()).toBe(held.getTime());
  });

  it('answers 404 for an unknown payment (one statement) and a malformed id (none)', async () => {
    const unknown = await counted('/v1/payment/complete/6f1c1e3a-0000-4000-8000-000000000000', { body: card() });
    expect(unknown.response.status).toBe(404);
    expect(unknown.response.body).toMatchObject({ code: 'payment_not_found', error: paymentMessages.notFound });
    expect(unknown.texts).toHaveLength(1);
    const malformed = await counted('/v1/payment/complete/not-a-payment', { body: card() });
    expect(malformed.response.status).toBe(404);
    expect(malformed.texts).toHaveLength(0);
  });
});

describe('paying a payment from a wallet', () => {
  it('is three statements: the payer, the payment with the key, collect_post with the TPIN; a replay is two', async () => {
    const payer = await createUser();
    const wallet = await createAccount(payer);
    await fundAccount(wallet.accountId, 100_000);
    const paymentId = await createPayment(store);
    const body = { accountNumber: wallet.accountNumber, tpin: wallet.tpin };
    const paid = await counted(`/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, headers: { 'idempotency-key': 'wallet-once' }, body });
    expect(paid.response.status).toBe(200);
    expect(paid.response.body).toMatchObject({ status: 'success', message: paymentMessages.success, data: { paymentStatus: 'success', paymentId } });
    const [, read, post] = paid.texts;
    expect(paid.texts).toHaveLength(3);
    expect(read).toContain('from "payments" inner join "stores"');
    expect(read).toContain('FROM idempotency_keys k');
    expect(isCollectPost(post!)).toBe(true);
    expect(paid.texts.some((text) => text.includes('tpin_check('))).toBe(false);

    const replay = await counted(`/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, headers: { 'idempotency-key': 'wallet-once' }, body });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.response.body.data).toEqual(paid.response.body.data);
    expect(replay.texts).toHaveLength(2);

    const own = await counted(`/v1/payment/complete/kestrel/${await createPayment(store)}`, { token: store.owner.token, body: { accountNumber: store.account.accountNumber, tpin: store.account.tpin } });
    expect(own.response.status).toBe(400);
    expect(own.response.body).toMatchObject({ code: 'own_store' });
    // Refused before the TPIN is tried: paying one's own store costs no attempt.
    expect(own.texts.filter((text) => text.includes('tpin_check(') || isCollectPost(text))).toEqual([]);
  });

  it('a wrong TPIN checked in the call is counted and answered as before, and the payment stays unpaid', async () => {
    const payer = await createUser();
    const wallet = await createAccount(payer);
    await fundAccount(wallet.accountId, 100_000);
    const paymentId = await createPayment(store);
    const wrongTpin = wallet.tpin === '0000' ? '1111' : '0000';
    const refused = await counted(`/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wrongTpin } });
    expect(refused.response.status).toBe(400);
    expect(refused.response.body).toMatchObject({ code: 'tpin_incorrect' });
    expect(refused.response.body.error).toContain('4 attempts left');
    expect(refused.texts.filter((text) => text.includes('tpin_check('))).toEqual([]);
    const { db } = await testServer();
    const account = await db.selectFrom('accounts').select('tpinFailedAttempts').where('id', '=', wallet.accountId).executeTakeFirstOrThrow();
    expect(account.tpinFailedAttempts).toBe(1);
    const payment = await db.selectFrom('payments').select('paymentStatus').where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect(payment.paymentStatus).toBe('initiate');
  });
});

describe('a wallet pay with a TPIN stored before keyed hashes', () => {
  it('an argon2 TPIN is verified and upgraded by the pay (a wrong one counted once), then checked in the call', async () => {
    const { db, config } = await testServer();
    const payer = await createUser();
    const wallet = await createAccount(payer);
    await fundAccount(wallet.accountId, 100_000);
    await db.updateTable('accounts').set({ tpinHash: await hashSecret(wallet.tpin) }).where('id', '=', wallet.accountId).execute();
    const wrongTpin = wallet.tpin === '0000' ? '1111' : '0000';
    const pay = (tpin: string) => api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin } });
    let paymentId = await createPayment(store);

    const wrong = await pay(wrongTpin);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    const state = () => db.selectFrom('accounts').select(['tpinHash', 'tpinFailedAttempts']).where('id', '=', wallet.accountId).executeTakeFirstOrThrow();
    expect((await state()).tpinHash.startsWith('$argon2')).toBe(true);
    expect((await state()).tpinFailedAttempts).toBe(1);

    const right = await pay(wallet.tpin);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ paymentStatus: 'success', paymentId });
    expect(await state()).toEqual({ tpinHash: tpinMac(config.secretKey, wallet.userName, wallet.tpin), tpinFailedAttempts: 0 });

    paymentId = await createPayment(store);
    const next = await counted(`/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
    expect(next.response.status).toBe(200);
    expect(next.texts).toHaveLength(3);
  });
});

describe('paying a payment-request link by card', () => {
  it('is four statements: the link with the key, the held use, the processor\'s record, collect_post; a replay is one', async () => {
    const created = await api('POST', '/v1/payment-request/create', {
      token: store.owner.token,
      body: {
        paymentPurpose: 'Guitar lessons',
        tpin: store.account.tpin,
        accountNumber: store.account.accountNumber,
        amount: { type: 'fixed', currency: 'USD', value: 25.5 },
        isUseLimit: false,
        reference: 'INV-42',
        paymentMethods: ['Card'],
      },
    });
    expect(created.status).toBe(201);
    const path = `/v1/payment-request/card/complete-payment/${created.body.data.pRequestURLId as string}`;
    const body = { ...card(), email: 'visitor@example.test', amount: 25.5, cardHolderName: 'Vera Visitor' };
    const paid = await counted(path, { headers: { 'idempotency-key': 'link-once' }, body });
    expect(paid.response.status).toBe(200);
    expect(paid.texts).toHaveLength(4);
    expect(paid.texts[0]).toContain('FROM idempotency_keys k');
    expect(processorRecord(paid.texts[2]!)).toBe(true);
    expect(isCollectPost(paid.texts[3]!)).toBe(true);

    const replay = await counted(path, { headers: { 'idempotency-key': 'link-once' }, body });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.response.body.data).toEqual(paid.response.body.data);
    expect(replay.texts).toHaveLength(1);
  });
});

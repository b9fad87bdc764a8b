import { asCents, formatMoney, REFUND_CALLBACK_EVENT, refundMessages, storeRefundCallbackEvent, type RefundView } from '@kestrel/shared';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser, fundAccount, unique, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createPayment, createStore, paidByCard, operatorToken, type TestStore } from '../../../test/gateway-fixtures.ts';
import { systemCents, walletCents } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';

/*
 * Refunds over real HTTP (issue 23): full and partial, card, wallet and link payments, with
 * every balance to the cent (payer, owner, fee revenue, refunds in flight, card clearing).
 * The processor's failure and a crash between the steps: refund-recovery.test.ts.
 */

/** Every balance a refund moves, at once. */
async function books(owner: string, payer?: string) {
  return {
    owner: await walletCents(owner),
    payer: payer ? await walletCents(payer) : 0,
    feeRevenue: await systemCents('fee_revenue', owner),
    inFlight: await systemCents('refunds_in_flight', owner),
    cardClearing: await systemCents('card_clearing', owner),
  };
}

const change = (before: Awaited<ReturnType<typeof books>>, after: Awaited<ReturnType<typeof books>>) => ({
  owner: after.owner - before.owner,
  payer: after.payer - before.payer,
  feeRevenue: after.feeRevenue - before.feeRevenue,
  inFlight: after.inFlight - before.inFlight,
  cardClearing: after.cardClearing - before.cardClearing,
});

async function payByWallet(store: TestStore, amount: number, payer: { user: TestUser; account: TestAccount }): Promise<string> {
  const paymentId = await createPayment(store, { amount });
  const paid = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.user.token, body: { accountNumber: payer.account.accountNumber, tpin: payer.account.tpin } });
  if (paid.status !== 200) throw new Error(`wallet pay failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  return paymentId;
}

const storeRefund = (store: TestStore, paymentId: string, body: Record<string, unknown>, key: string | null = unique('rk')) =>
  api<{ status: string; message?: string; data: RefundView; error?: string; code?: string }>('POST', `/v1/payment/refund/${paymentId}`, {
    headers: { ...store.headers, ...(key === null ? {} : { 'idempotency-key': key }) },
    body,
  });

const paymentOf = async (store: TestStore, paymentId: string) => (await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers })).body.data;

let payer: { user: TestUser; account: TestAccount };
beforeAll(async () => {
  const user = await createUser();
  const account = await createAccount(user);
  await fundAccount(account.accountId, 10_000_000);
  payer = { user, account };
});

describe('a card payment refunded in two parts', () => {
  it('moves the owner, fee revenue and card clearing to the cent, returns the fee exactly, and tells the store', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 25.5);
    // 2 % of 25.50 = 0.51 fee; the owner got 24.99.
    expect(await walletCents(store.account.accountId)).toBe(2499);

    const before = await books(store.account.accountId);
    const first = await storeRefund(store, paymentId, { amount: '10.00', reason: 'Returned by the customer' });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(refundMessages.created);
    expect(first.body.data).toMatchObject({
      paymentId,
      amount: 10,
      currency: 'USD',
      // floor(51 × 1000 / 2550) = 20 cents of the fee come back with a 10.00 refund.
      fee: { amount: 0.2, currency: 'USD' },
      status: 'succeeded',
      reason: 'Returned by the customer',
      initiatedBy: { kind: 'store', name: expect.any(String) },
      destination: { type: 'card', number: '424242******4242' },
      failureReason: null,
    });
    const afterFirst = await books(store.account.accountId);
    expect(change(before, afterFirst)).toEqual({ owner: -980, payer: 0, feeRevenue: -20, inFlight: 0, cardClearing: 1000 });

    const view = await paymentOf(store, paymentId);
    expect(view).toMatchObject({ paymentStatus: 'success', amountRefunded: 10, amountRefundable: 15.5, refundState: 'partially_refunded' });
    expect(view.refunds).toHaveLength(1);

    // Omitted amount: what is left. The last refund takes the rest of the fee: 51 − 20 = 31.
    const second = await storeRefund(store, paymentId, {});
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ amount: 15.5, fee: { amount: 0.31, currency: 'USD' }, status: 'succeeded' });
    expect(change(afterFirst, await books(store.account.accountId))).toEqual({ owner: -1519, payer: 0, feeRevenue: -31, inFlight: 0, cardClearing: 1550 });
    expect(await walletCents(store.account.accountId)).toBe(0);

    const full = await paymentOf(store, paymentId);
    expect(full).toMatchObject({ paymentStatus: 'success', amountRefunded: 25.5, amountRefundable: 0, refundState: 'refunded' });
    expect(full.refunds.map((refund: RefundView) => refund.fee.amount)).toEqual([0.31, 0.2]);

    const listed = await api('GET', `/v1/payment/refunds/${paymentId}`, { headers: store.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((refund: RefundView) => refund.refundId)).toEqual([second.body.data.refundId, first.body.data.refundId]);

    const third = await storeRefund(store, paymentId, { amount: 1 });
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ error: refundMessages.fullyRefunded, code: 'refund_exceeds_remaining' });

    // The store is told of each refund through the signed callbacks outbox.
    const { db } = await testServer();
    const bodies = await db.selectFrom('callbackDeliveries').select('body').where('paymentId', '=', paymentId).orderBy('id').execute();
    const events = bodies.map((row) => JSON.parse(row.body) as Record<string, unknown>).filter((body) => body.event === REFUND_CALLBACK_EVENT);
    expect(events.map((event) => storeRefundCallbackEvent.parse(event))).toMatchObject([
      { refundId: first.body.data.refundId, paymentId, amount: 10, fee: 0.2, amountRefunded: 10, amountRemaining: 15.5, refundStatus: 'succeeded', tnxId: first.body.data.transactionId },
      { refundId: second.body.data.refundId, paymentId, amount: 15.5, fee: 0.31, amountRefunded: 25.5, amountRemaining: 0, refundStatus: 'succeeded' },
    ]);

    // The counters count real refunds.
    const summary = await api('GET', `/v1/payment/store/${store.storeId}/summary`, { token: store.owner.token });
    expect(summary.body.data).toMatchObject({ succeeded: 1, refundCount: 2, refundedAmount: 25.5 });
    const stores = await api('GET', `/v1/payment_gateway_store/account/${store.account.accountEmail}`, { token: store.owner.token });
    expect(stores.body.data.counters).toMatchObject({ totalRefund: 2, totalRefundAmount: 25.5 });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe('a wallet payment refunded', () => {
  it('goes back to the payer at once, from the owner and fee revenue, and the payer sees it with its own purpose', async () => {
    const store = await createStore();
    const paymentId = await payByWallet(store, 25.5, payer);
    const before = await books(store.account.accountId, payer.account.accountId);
    const refunded = await storeRefund(store, paymentId, { amount: 5 });
    expect(refunded.status).toBe(200);
    // floor(51 × 500 / 2550) = 10 cents of the fee.
    expect(refunded.body.data).toMatchObject({ amount: 5, fee: { amount: 0.1, currency: 'USD' }, status: 'succeeded', destination: { type: 'wallet', number: `****${payer.account.accountNumber.slice(-4)}` } });
    expect(change(before, await books(store.account.accountId, payer.account.accountId))).toEqual({ owner: -490, payer: 500, feeRevenue: -10, inFlight: 0, cardClearing: 0 });

    // The rest: the payer has all 25.50 back, the owner and fee revenue are where they were before the payment.
    const beforeRest = await books(store.account.accountId, payer.account.accountId);
    const rest = await storeRefund(store, paymentId, {});
    expect(rest.body.data).toMatchObject({ amount: 20.5, fee: { amount: 0.41 }, status: 'succeeded' });
    expect(change(beforeRest, await books(store.account.accountId, payer.account.accountId))).toEqual({ owner: -2009, payer: 2050, feeRevenue: -41, inFlight: 0, cardClearing: 0 });
    expect(await walletCents(store.account.accountId)).toBe(0);

    const seen = await api('GET', `/v1/transaction/account/${payer.account.accountNumber}`, { token: payer.user.token });
    const transactions = seen.body.data.flatMap((group: { transactions: { transactionId: string; transactionFor: string; amount: number; accounts: unknown[] }[] }) => group.transactions);
    expect(transactions.find((row: { transactionId: string }) => row.transactionId === refunded.body.data.transactionId)).toMatchObject({
      transactionFor: 'Refund',
      amount: 5,
      accounts: expect.arrayContaining([{ accountNumber: payer.account.accountNumber, transactionType: 'credit' }]),
    });
  });
});

describe('a payment-request link payment refunded by its owner', () => {
  let owner: TestUser;
  let ownerAccount: TestAccount;
  const createLink = async () => {
    const response = await api('POST', '/v1/payment-request/create', {
      token: owner.token,
      body: { paymentPurpose: 'Guitar lessons', tpin: ownerAccount.tpin, accountNumber: ownerAccount.accountNumber, amount: { type: 'fixed', currency: 'USD', value: 40 }, isUseLimit: false, reference: 'INV-1', paymentMethods: ['Card', 'Kestrel'] },
    });
    expect(response.status).toBe(201);
    return response.body.data.pRequestURLId as string;
  };
  const linkPaymentIds = async () => {
    const listed = await api('GET', `/v1/payment/source?type=Link-payment&accountNumber=${ownerAccount.accountNumber}`, { token: owner.token });
    return listed.body.data as { id: string; source: { type: string }; amountRefunded: number; refundState: string | null; amountRefundable: number }[];
  };
  const ownerRefund = (paymentId: string, body: Record<string, unknown>, token = owner.token) =>
    api('POST', `/v1/payment/details/${paymentId}/refund`, { token, body, headers: { 'idempotency-key': unique('ok') } });

  beforeAll(async () => {
    owner = await createUser();
    ownerAccount = await createAccount(owner);
  });

  it('refunds a wallet-paid link payment to the payer and a card-paid one to the card, with the TPIN', async () => {
    const urlId = await createLink();
    const byWallet = await api('POST', `/v1/payment-request/kestrel/complete-payment/${urlId}`, {
      token: payer.user.token,
      body: { amount: 40, accountNumber: payer.account.accountNumber, tpin: payer.account.tpin },
    });
    expect(byWallet.status).toBe(200);
    const byCard = await api('POST', `/v1/payment-request/card/complete-payment/${urlId}`, { body: { ...card('4242 4242 4242 4242'), email: 'v@example.test', amount: 40, cardHolderName: 'Vera' } });
    expect(byCard.status).toBe(200);
    // Two payments of 40.00, fee 0.80 each: the owner holds 78.40.
    expect(await walletCents(ownerAccount.accountId)).toBe(7840);
    const [cardPayment, walletPayment] = await linkPaymentIds();
    expect(cardPayment!.source.type).toBe('card');
    expect(walletPayment!.source.type).toBe('wallet');

    const wrongTpin = await ownerRefund(walletPayment!.id, { amount: 10, tpin: ownerAccount.tpin === '9999' ? '1111' : '9999' });
    expect(wrongTpin.status).toBe(400);
    expect(await walletCents(ownerAccount.accountId)).toBe(7840);

    let before = await books(ownerAccount.accountId, payer.account.accountId);
    const walletRefund = await ownerRefund(walletPayment!.id, { amount: 10, reason: 'Lesson cancelled', tpin: ownerAccount.tpin });
    expect(walletRefund.status).toBe(200);
    // floor(80 × 1000 / 4000) = 20 cents of the fee.
    expect(walletRefund.body.data).toMatchObject({ amount: 10, fee: { amount: 0.2 }, status: 'succeeded', initiatedBy: { kind: 'owner' }, reason: 'Lesson cancelled' });
    expect(change(before, await books(ownerAccount.accountId, payer.account.accountId))).toEqual({ owner: -980, payer: 1000, feeRevenue: -20, inFlight: 0, cardClearing: 0 });

    before = await books(ownerAccount.accountId, payer.account.accountId);
    const cardRefund = await ownerRefund(cardPayment!.id, { tpin: ownerAccount.tpin });
    expect(cardRefund.status).toBe(200);
    expect(cardRefund.body.data).toMatchObject({ amount: 40, fee: { amount: 0.8 }, status: 'succeeded', destination: { type: 'card' } });
    expect(change(before, await books(ownerAccount.accountId, payer.account.accountId))).toEqual({ owner: -3920, payer: 0, feeRevenue: -80, inFlight: 0, cardClearing: 4000 });

    const after = await linkPaymentIds();
    expect(after.map((row) => [row.amountRefunded, row.amountRefundable, row.refundState])).toEqual([
      [40, 0, 'refunded'],
      [10, 30, 'partially_refunded'],
    ]);
    const links = await api('GET', `/v1/payment-request/account/${ownerAccount.accountNumber}`, { token: owner.token });
    expect(links.body.data[0]).toMatchObject({ refundCount: 2, refundedAmount: 50 });
    // The list page's counters, counted by the database over every link, say the same.
    const counters = await api('GET', `/v1/payment-request/account/${ownerAccount.accountNumber}/summary`, { token: owner.token });
    expect(counters.body.data).toMatchObject({ payments: 2, refundCount: 2, refundedAmount: 50 });
    const refunds = await api('GET', `/v1/payment/refunds/${walletPayment!.id}`, { token: owner.token });
    expect(refunds.body.data).toHaveLength(1);

    // Someone else, signed in, finds nothing.
    const stranger = await createUser();
    expect((await ownerRefund(walletPayment!.id, { amount: 1, tpin: '1234' }, stranger.token)).status).toBe(404);
    expect((await api('GET', `/v1/payment/refunds/${walletPayment!.id}`, { token: stranger.token })).status).toBe(404);
  });
});

describe('the fee returned', () => {
  it('adds up to the fee charged, to the cent, over uneven partial refunds', async () => {
    const store = await createStore();
    // 100.01 at 2 %: fee 2.00.
    const paymentId = await paidByCard(store, 100.01);
    const fees: number[] = [];
    for (const amount of ['33.33', '33.33', '0.01', '33.34']) {
      const refunded = await storeRefund(store, paymentId, { amount });
      expect(refunded.status).toBe(200);
      fees.push(refunded.body.data.fee.amount);
    }
    // floor(200 × 3333 / 10001) = 66; floor(200 × 6666 / 10001) − 66 = 67; floor(200 × 6667 / 10001) − 133 = 0; 200 − 133 = 67.
    expect(fees).toEqual([0.66, 0.67, 0, 0.67]);
    expect(await walletCents(store.account.accountId)).toBe(0);
    expect((await paymentOf(store, paymentId)).refundState).toBe('refunded');
  });
});

describe('refunds at once', () => {
  it('20 parallel 10 % refunds with their own keys: exactly 10 succeed, the total never passes the amount, the owner never below zero', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 25.5);
    const answers = await Promise.all(Array.from({ length: 20 }, () => storeRefund(store, paymentId, { amount: 2.55 })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(409)]);
    const { db } = await testServer();
    const rows = await db.selectFrom('refunds').select(['amountCents', 'feeCents', 'status']).where('paymentId', '=', paymentId).execute();
    expect(rows).toHaveLength(10);
    expect(rows.reduce((sum, row) => sum + Number(row.amountCents), 0)).toBe(2550);
    expect(rows.reduce((sum, row) => sum + Number(row.feeCents), 0)).toBe(51);
    expect(await walletCents(store.account.accountId)).toBe(0);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('the same key 20 times at once is one refund, every answer that refund', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 25.5);
    const key = unique('same');
    const answers = await Promise.all(Array.from({ length: 20 }, () => storeRefund(store, paymentId, { amount: 3 }, key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.data.refundId)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const { db } = await testServer();
    expect(await db.selectFrom('refunds').select('id').where('paymentId', '=', paymentId).execute()).toHaveLength(1);
    // 25.50 − 0.51 fee − (3.00 − floor(51 × 300 / 2550) = 0.06 fee back) = 22.05.
    expect(await walletCents(store.account.accountId)).toBe(2205);

    const other = await storeRefund(store, paymentId, { amount: 4 }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });
});

describe('refusals change nothing', () => {
  let store: TestStore;
  let paymentId: string;
  beforeAll(async () => {
    store = await createStore();
    paymentId = await paidByCard(store, 25.5);
  });

  it('answers a readable 400 or 409 for a wrong currency, too much, zero, negative, no key, an unpaid or failed payment', async () => {
    const before = await books(store.account.accountId);
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ amount: 1, currency: 'EUR' }, 400, 'refund_currency_mismatch', refundMessages.currencyMismatch('USD')],
      [{ amount: 25.51 }, 409, 'refund_exceeds_remaining', refundMessages.exceedsRemaining(formatMoney(asCents(2550), 'USD'))],
      [{ amount: 0 }, 400, 'validation_failed'],
      [{ amount: -5 }, 400, 'validation_failed'],
      [{ amount: '1.005' }, 400, 'validation_failed'],
    ];
    for (const [body, status, code, message] of cases) {
      const answer = await storeRefund(store, paymentId, body);
      expect([answer.status, answer.body.code]).toEqual([status, code]);
      // A bad amount is named under its field with the amount rule's text.
      expect(message ? answer.body.error : (answer.body as { fields?: Record<string, string> }).fields?.amount).toBe(message ?? refundMessages.amountInvalid);
    }
    const noKey = await storeRefund(store, paymentId, { amount: 1 }, null);
    expect([noKey.status, noKey.body.code, noKey.body.error]).toEqual([400, 'idempotency_key_required', refundMessages.idempotencyKeyRequired]);

    const unpaid = await createPayment(store);
    const declined = await createPayment(store);
    expect((await api('POST', `/v1/payment/complete/${declined}`, { body: card('4000000000000002') })).status).toBe(402);
    for (const id of [unpaid, declined]) {
      const answer = await storeRefund(store, id, { amount: 1 });
      expect([answer.status, answer.body.code, answer.body.error]).toEqual([409, 'payment_not_refundable', refundMessages.notRefundable]);
    }
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: 0, payer: 0, feeRevenue: 0, inFlight: 0, cardClearing: 0 });
    const { db } = await testServer();
    expect(await db.selectFrom('refunds').select('id').where('storeId', '=', (await db.selectFrom('stores').select('id').where('storeId', '=', store.storeId).executeTakeFirstOrThrow()).id).execute()).toEqual([]);
  });

  it('refuses a payment older than 180 days', async () => {
    const { db } = await testServer();
    const old = await paidByCard(store, 5);
    await sql`UPDATE payments SET paid_at = now() - interval '181 days' WHERE id = ${old}`.execute(db);
    const answer = await storeRefund(store, old, { amount: 1 });
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([409, 'refund_window_closed', refundMessages.windowClosed]);
  });

  it("answers 409 when the owner's wallet cannot cover the refund, and moves nothing", async () => {
    const poor = await createStore();
    const paid = await payByWallet(poor, 10, payer);
    // The owner spends what came in (9.80) on another store's payment.
    const elsewhere = await createStore();
    const spend = await createPayment(elsewhere, { amount: 9.8 });
    expect((await api('POST', `/v1/payment/complete/kestrel/${spend}`, { token: poor.owner.token, body: { accountNumber: poor.account.accountNumber, tpin: poor.account.tpin } })).status).toBe(200);
    const before = await books(poor.account.accountId, payer.account.accountId);
    const answer = await storeRefund(poor, paid, { amount: 5 });
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([409, 'refund_insufficient_balance', refundMessages.insufficientBalance]);
    expect(change(before, await books(poor.account.accountId, payer.account.accountId))).toEqual({ owner: 0, payer: 0, feeRevenue: 0, inFlight: 0, cardClearing: 0 });
    expect((await paymentOf(poor, paid)).amountRefundable).toBe(10);
  });
});

describe('who may refund', () => {
  it("bob refunding alice's payment, another store's key → 404; anonymous → 401; a Pending store → 403", async () => {
    const alice = await createStore();
    const paymentId = await paidByCard(alice, 12);
    const bob = await createStore();
    const before = await books(alice.account.accountId);

    const bobAsOwner = await api('POST', `/v1/payment/details/${paymentId}/refund`, { token: bob.owner.token, body: { amount: 1, tpin: bob.account.tpin } });
    expect([bobAsOwner.status, bobAsOwner.body.code]).toEqual([404, 'payment_not_found']);
    const bobsStore = await storeRefund(bob, paymentId, { amount: 1 });
    expect([bobsStore.status, bobsStore.body.code]).toEqual([404, 'payment_not_found']);
    expect((await api('GET', `/v1/payment/refunds/${paymentId}`, { headers: bob.headers })).status).toBe(404);
    expect((await api('GET', `/v1/payment/refunds/${paymentId}`, { token: bob.owner.token })).status).toBe(404);
    expect((await api('POST', `/v1/payment/refund/${paymentId}`, { body: { amount: 1 }, headers: { 'idempotency-key': unique('a') } })).status).toBe(401);
    expect((await api('POST', `/v1/payment/details/${paymentId}/refund`, { body: { amount: 1, tpin: '1234' } })).status).toBe(401);
    expect((await storeRefund(alice, 'not-a-uuid', { amount: 1 })).status).toBe(404);

    const pending = await createStore({ approve: false });
    const refused = await storeRefund(pending, paymentId, { amount: 1 });
    expect([refused.status, refused.body.code]).toEqual([403, 'store_pending']);
    expect(change(before, await books(alice.account.accountId))).toEqual({ owner: 0, payer: 0, feeRevenue: 0, inFlight: 0, cardClearing: 0 });
  });

  it('the owner refunds from the portal with the TPIN; an operator with a reason, in the audit trail', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 20);
    const asOwner = await api('POST', `/v1/payment/details/${paymentId}/refund`, { token: store.owner.token, body: { amount: '2.50', tpin: store.account.tpin } });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.data).toMatchObject({ amount: 2.5, initiatedBy: { kind: 'owner' }, status: 'succeeded' });

    const operator = await operatorToken();
    const noReason = await api('POST', `/v1/operator/payments/${paymentId}/refund`, { token: operator, body: { amount: 1 } });
    expect(noReason.status).toBe(400);
    const notOperator = await api('POST', `/v1/operator/payments/${paymentId}/refund`, { token: store.owner.token, body: { amount: 1, reason: 'x' } });
    expect(notOperator.status).toBe(404);
    const asOperator = await api('POST', `/v1/operator/payments/${paymentId}/refund`, { token: operator, body: { amount: 1, reason: 'Complaint #4411' } });
    expect(asOperator.status).toBe(200);
    expect(asOperator.body.data).toMatchObject({ amount: 1, reason: 'Complaint #4411', initiatedBy: { kind: 'operator', name: 'Kestrel support' } });

    const seen = await api('GET', `/v1/operator/payments/${paymentId}`, { token: operator });
    expect(seen.body.data).toMatchObject({ kind: 'gateway', amount: 20, amountRefunded: 3.5, amountRefundable: 16.5, refundState: 'partially_refunded' });
    const audit = await api('GET', `/v1/operator/audit-log?action=payment.refunded&subject=${paymentId}`, { token: operator });
    expect(audit.status).toBe(200);
    const entries = audit.body.data.items as { action: string; details: Record<string, unknown>; actorUserId?: string | null }[];
    expect(entries.map((entry) => entry.details.initiatedBy).sort()).toEqual(['operator', 'owner']);
    expect(entries.find((entry) => entry.details.initiatedBy === 'operator')?.details.reason).toBe('Complaint #4411');
  });
});

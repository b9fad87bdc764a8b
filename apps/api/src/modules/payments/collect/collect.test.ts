import { MAX_DECLINES_PER_PAYMENT, MAX_DECLINES_PER_STORE_PER_HOUR, paymentMessages, paymentRequestMessages as m } from '@kestrel/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, testServer } from '../../../../test/harness.ts';
import { createAccount, createUser, fundAccount, type TestAccount, type TestUser } from '../../../../test/factories.ts';
import { card, createdLink, createPayment, createStore, linkBodyFor, webPayBodyFor, type TestLink as Link, type TestStore } from '../../../../test/gateway-fixtures.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { linkUseHold } from '../../payment-requests/link-collect.ts';
import type { CardProcessor } from '../card-processor.ts';

/*
 * Proof for the collect pipeline and the payment-attempt rules of issue 19 (items 4 and 9),
 * over real HTTP on the test database (PGlite or PostgreSQL).
 */

const DECLINED = '4000 0000 0000 0002';

let owner: TestUser;
let ownerAccount: TestAccount;
let payer: TestUser;
let wallet: TestAccount;
/** The test server's card processor (its sandbox), to watch or script its calls. */
let sandboxProcessor: CardProcessor;

beforeAll(async () => {
  sandboxProcessor = (await testServer()).app.ctx.cardProcessor;
  owner = await createUser();
  ownerAccount = await createAccount(owner);
  payer = await createUser();
  wallet = await createAccount(payer);
  await fundAccount(wallet.accountId, 1_000_000);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const createLink = async (overrides: Record<string, unknown> = {}): Promise<Link> =>
  createdLink(await api('POST', '/v1/payment-request/create', { token: owner.token, body: linkBodyFor(ownerAccount, overrides) }));

const payLinkByCard = (link: Link, number = '4242 4242 4242 4242', amount: number = 20) =>
  api('POST', `/v1/payment-request/card/complete-payment/${link.pRequestURLId}`, {
    body: { ...card(number), email: 'visitor@example.test', amount, cardHolderName: 'Vera Visitor' },
  });

async function linkUses(linkId: string) {
  const { db } = await testServer();
  const row = await db.selectFrom('paymentRequests').select(['useLimit', 'heldUses']).where('id', '=', linkId).executeTakeFirstOrThrow();
  const holds = await db.selectFrom('paymentRequestHolds').select('id').where('paymentRequestId', '=', linkId).execute();
  const payments = await db.selectFrom('paymentRequestPayments').select('id').where('paymentRequestId', '=', linkId).execute();
  return { useLimit: row.useLimit, heldUses: row.heldUses, holds: holds.length, payments: payments.length };
}

describe('the minimum payment amount (issue 19 item 4)', () => {
  it('refuses less than US$ 0.50 on web-pay, direct and links with a readable 400, and takes US$ 0.50', async () => {
    const store = await createStore();
    const small = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor({ amount: 0.49 }) });
    expect(small.status).toBe(400);
    expect(small.body.error).toBe(paymentMessages.amountBelowMinimum);
    expect(paymentMessages.amountBelowMinimum).toBe('The minimum payment amount is US$ 0.50');
    const direct = await api('POST', '/v1/payment/web-pay/complete/direct', { headers: store.headers, body: { ...webPayBodyFor({ amount: '0.01' }), ...card() } });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toBe(paymentMessages.amountBelowMinimum);
    expect((await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor({ amount: 0.5 }) })).status).toBe(200);

    for (const overrides of [{ amount: { type: 'fixed', currency: 'USD', value: 0.49 } }, { amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 0.25, maximumAmount: 10 }]) {
      const refused = await api('POST', '/v1/payment-request/create', {
        token: owner.token,
        body: { paymentPurpose: 'Tiny', tpin: ownerAccount.tpin, accountNumber: ownerAccount.accountNumber, isUseLimit: false, reference: 'T', paymentMethods: ['Card'], ...overrides },
      });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(paymentMessages.amountBelowMinimum);
    }
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 0.5 } });
    expect((await payLinkByCard(link, undefined, 0.5)).status).toBe(200);
    const tooSmall = await payLinkByCard(link, undefined, 0.3);
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.error).toBe(paymentMessages.amountBelowMinimum);
  });
});

describe('declined card attempts (issue 19 item 4)', () => {
  it(`take ${MAX_DECLINES_PER_PAYMENT} declines on a payment; the next attempt answers 429, charges nothing, and the payment shows why`, async () => {
    const store = await createStore();
    const paymentId = await createPayment(store);
    const charge = vi.spyOn(sandboxProcessor, 'charge');
    for (let attempt = 0; attempt < MAX_DECLINES_PER_PAYMENT; attempt += 1) {
      expect((await api('POST', `/v1/payment/complete/${paymentId}`, { body: card(DECLINED) })).status).toBe(402);
    }
    const sixth = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ error: paymentMessages.tooManyDeclines, code: 'too_many_declines' });
    expect(charge).toHaveBeenCalledTimes(MAX_DECLINES_PER_PAYMENT);
    const seen = await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers });
    expect(seen.body.data.paymentStatus).toBe('initiate');
    expect(seen.body.data.paymentErrors).toHaveLength(MAX_DECLINES_PER_PAYMENT + 1);
    expect(seen.body.data.paymentErrors.at(-1)).toMatchObject({ errorMessage: paymentMessages.tooManyDeclines, errorSource: { type: 'card', number: '424242******4242' } });
    // The wallet is no card-testing oracle: it still pays the payment.
    const paid = await api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } });
    expect(paid.status).toBe(200);
  });

  it(`take ${MAX_DECLINES_PER_STORE_PER_HOUR} declines per store in an hour across its payments; older ones do not count`, async () => {
    const store = await createStore();
    const { db } = await testServer();
    const storeRow = await db.selectFrom('stores').select('id').where('storeId', '=', store.storeId).executeTakeFirstOrThrow();
    const earlier = await createPayment(store);
    // The store's earlier declines: all but one within the hour, and a batch from two hours ago.
    const row = (errorAt: Date) => ({ paymentId: earlier, storeId: storeRow.id, errorCode: 'card_declined', errorMessage: 'Your card was declined.', sourceType: 'card', errorAt });
    await db
      .insertInto('paymentErrors')
      .values([
        ...Array.from({ length: MAX_DECLINES_PER_STORE_PER_HOUR - 1 }, () => row(new Date(Date.now() - 30 * 60 * 1000))),
        ...Array.from({ length: 20 }, () => row(new Date(Date.now() - 2 * 60 * 60 * 1000))),
      ])
      .execute();
    const fresh = await createPayment(store);
    expect((await api('POST', `/v1/payment/complete/${fresh}`, { body: card(DECLINED) })).status).toBe(402);
    const another = await createPayment(store);
    const refused = await api('POST', `/v1/payment/complete/${another}`, { body: card() });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(paymentMessages.tooManyStoreDeclines);
    const direct = await api('POST', '/v1/payment/web-pay/complete/direct', { headers: store.headers, body: { ...webPayBodyFor(), ...card() } });
    expect(direct.status).toBe(429);
    // Another store is not affected.
    const other = await createStore();
    expect((await api('POST', `/v1/payment/complete/${await createPayment(other)}`, { body: card() })).status).toBe(200);
  });
});

describe("a link's held use (issue 19 item 9)", () => {
  it('comes back when the process dies between holding the use and recording the payment', async () => {
    const { app } = await testServer();
    const link = await createLink({ isUseLimit: true, useLimit: 1 });
    // The pipeline's first step of a card attempt, then nothing: the process died before the
    // charge was recorded or the hold given back (no catch block, no undo ran).
    await linkUseHold(app.ctx, link.id).take();
    expect(await linkUses(link.id)).toEqual({ useLimit: 1, heldUses: 1, holds: 1, payments: 0 });
    const whileHeld = await payLinkByCard(link);
    expect(whileHeld.status).toBe(409);
    expect(whileHeld.body.error).toBe(m.limitExceeded);

    // The hold's expiry passes: the next attempt sweeps it and takes the use.
    const { db } = await testServer();
    await db.updateTable('paymentRequestHolds').set({ expiresAt: new Date(Date.now() - 1000) }).where('paymentRequestId', '=', link.id).execute();
    expect((await payLinkByCard(link)).status).toBe(200);
    expect(await linkUses(link.id)).toEqual({ useLimit: 0, heldUses: 0, holds: 0, payments: 1 });
    expect((await payLinkByCard(link)).status).toBe(409);
  });

  it('counts against a limit changed while a card is charged: a declined card gives back its hold, never a use on top', async () => {
    const link = await createLink({ isUseLimit: true, useLimit: 3 });
    const setLimit = (useLimit: number) => api('PATCH', `/v1/payment-request/limit/update/${link.id}`, { token: owner.token, body: { useLimit } });
    const charge = sandboxProcessor.charge.bind(sandboxProcessor);
    vi.spyOn(sandboxProcessor, 'charge').mockImplementationOnce(async (attempt) => {
      expect((await setLimit(1)).status).toBe(200);
      return charge({ ...attempt, number: '4000000000000002' });
    });
    expect((await payLinkByCard(link)).status).toBe(402);
    expect(await linkUses(link.id)).toEqual({ useLimit: 1, heldUses: 0, holds: 0, payments: 0 });
  });

  it('is never exceeded when the owner lowers the limit to 0 while a card is charged: the charge is voided, nothing recorded', async () => {
    const link = await createLink({ isUseLimit: true, useLimit: 1 });
    const charge = sandboxProcessor.charge.bind(sandboxProcessor);
    const voided = vi.spyOn(sandboxProcessor, 'void');
    vi.spyOn(sandboxProcessor, 'charge').mockImplementationOnce(async (attempt) => {
      expect((await api('PATCH', `/v1/payment-request/limit/update/${link.id}`, { token: owner.token, body: { useLimit: 0 } })).status).toBe(200);
      return charge(attempt);
    });
    const refused = await payLinkByCard(link);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(m.limitExceeded);
    expect(voided).toHaveBeenCalledTimes(1);
    expect(await linkUses(link.id)).toEqual({ useLimit: 0, heldUses: 0, holds: 0, payments: 0 });
  });
});

describe('races on one record', () => {
  it('20 parallel card pays of one payment: one success', async () => {
    const store = await createStore();
    const paymentId = await createPayment(store);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api('POST', `/v1/payment/complete/${paymentId}`, { body: card() })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
  });

  it('20 parallel pays of a 1-use link, card and wallet mixed: one success, the use spent, no hold left', async () => {
    const link = await createLink({ isUseLimit: true, useLimit: 1 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0
          ? payLinkByCard(link)
          : api('POST', `/v1/payment-request/kestrel/complete-payment/${link.pRequestURLId}`, {
              token: payer.token,
              body: { amount: 20, accountNumber: wallet.accountNumber, tpin: wallet.tpin },
            }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 409)).toBe(true);
    expect(await linkUses(link.id)).toEqual({ useLimit: 0, heldUses: 0, holds: 0, payments: 1 });
  });
});

describe('a hot store', () => {
  it('takes concurrent payments while its owner spends from the wallet: never below zero, every balance equal to its postings', async () => {
    const store: TestStore = await createStore();
    const { db } = await testServer();
    const recipient = await createAccount(await createUser());
    const payments = await Promise.all(Array.from({ length: 30 }, () => createPayment(store, { amount: 10 })));
    const transfer = () =>
      api('POST', '/v1/account/transfer_balance', {
        token: store.owner.token,
        body: { userId: store.owner.userId, debitAccountKey: store.account.userName, creditAccountKey: recipient.userName, currency: 'USD', balance: 15, tpin: Number(store.account.tpin) },
      });
    const [paid, spent] = await Promise.all([
      Promise.all(payments.map((paymentId, index) =>
        index % 3 === 0
          ? api('POST', `/v1/payment/complete/kestrel/${paymentId}`, { token: payer.token, body: { accountNumber: wallet.accountNumber, tpin: wallet.tpin } })
          : api('POST', `/v1/payment/complete/${paymentId}`, { body: card() }),
      )),
      Promise.all(Array.from({ length: 25 }, () => transfer())),
    ]);
    expect(paid.every((answer) => answer.status === 200)).toBe(true);
    const transfers = spent.filter((answer) => answer.status === 200).length;
    expect(spent.every((answer) => answer.status === 200 || answer.body.code === 'insufficient_balance')).toBe(true);
    // 30 payments of 10.00 less the 2 % fee = 294.00 in; each successful transfer 15.00 out.
    // The balance a person sees: the folded part plus credits still pending on the hot wallet.
    const balance = await db.selectFrom('walletBalances').select(['ledgerAccountId', 'balanceCents']).where('accountId', '=', store.account.accountId).executeTakeFirstOrThrow();
    expect(Number(balance.balanceCents)).toBe(29_400 - transfers * 1_500);
    expect(Number(balance.balanceCents)).toBeGreaterThanOrEqual(0);
    const postings = await db.selectFrom('ledgerPostings').select((eb) => eb.fn.sum<string>('amountCents').as('sum')).where('ledgerAccountId', '=', balance.ledgerAccountId).executeTakeFirstOrThrow();
    expect(Number(postings.sum)).toBe(Number(balance.balanceCents));
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

import { asCents, checkoutMessages, messages, paymentMessages, paymentRequestMessages as m, TPIN_MAX_FAILED_ATTEMPTS } from '@kestrel/shared';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { postingsOf, walletCents } from '../../../test/ledger-fixtures.ts';
import { createAccount, createUser, fundAccount, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createdLink, createPayment, createStore, linkBodyFor, operatorToken, type TestLink as Link } from '../../../test/gateway-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { linkChargeRecorded } from './payment-requests.repository.ts';

const sorted = (rows: [string, number][]) => [...rows].sort();

async function linkRowCount(accountId: string): Promise<number> {
  const { db } = await testServer();
  return (await db.selectFrom('paymentRequests').select('id').where('accountId', '=', accountId).execute()).length;
}

async function errorCount(linkId: string): Promise<number> {
  const { db } = await testServer();
  return (await db.selectFrom('paymentRequestErrors').select('id').where('paymentRequestId', '=', linkId).execute()).length;
}

/** An operator's lock (or unlock) of money movement on an account, through the console's route. */
async function setOperatorLock(accountId: string, locked: boolean): Promise<void> {
  const response = await api('POST', `/v1/operator/accounts/${accountId}/${locked ? 'lock' : 'unlock'}`, { token: await operatorToken(), body: { reason: 'Payment-request test' } });
  expect(response.status).toBe(200);
}

async function paymentCount(linkId: string): Promise<number> {
  const { db } = await testServer();
  return (await db.selectFrom('paymentRequestPayments').select('id').where('paymentRequestId', '=', linkId).execute()).length;
}

let owner: TestUser;
let ownerAccount: TestAccount;
let payer: TestUser;
let wallet: TestAccount;
let stranger: TestUser;

beforeAll(async () => {
  owner = await createUser();
  ownerAccount = await createAccount(owner);
  payer = await createUser();
  wallet = await createAccount(payer);
  await fundAccount(wallet.accountId, 1_000_000);
  stranger = await createUser();
});

function linkBody(overrides: Record<string, unknown> = {}, account: TestAccount = ownerAccount) {
  return linkBodyFor(account, { paymentPurpose: 'Guitar lessons', amount: { type: 'fixed', currency: 'USD', value: 25.5 }, reference: 'INV-42', ...overrides });
}

async function createLink(overrides: Record<string, unknown> = {}, as: { user: TestUser; account: TestAccount } = { user: owner, account: ownerAccount }): Promise<Link> {
  return createdLink(await api('POST', '/v1/payment-request/create', { token: as.user.token, body: linkBody(overrides, as.account) }));
}

const cardBody = (amount: number | string, number = '4242 4242 4242 4242', overrides: Record<string, unknown> = {}) => ({
  ...card(number),
  email: 'visitor@example.test',
  amount,
  cardHolderName: 'Vera Visitor',
  ...overrides,
});

const payByCard = (link: Link, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api('POST', `/v1/payment-request/card/complete-payment/${link.pRequestURLId}`, { body, headers });

const payByWallet = (link: Link, body: Record<string, unknown>, token = payer.token, headers: Record<string, string> = {}) =>
  api('POST', `/v1/payment-request/kestrel/complete-payment/${link.pRequestURLId}`, { token, body, headers });

const walletBody = (amount: number | string, account: TestAccount = wallet) => ({ email: 'payer@example.test', amount, accountNumber: account.accountNumber, tpin: account.tpin });

describe('POST /v1/payment-request/create', () => {
  it('creates a fixed link with an unguessable public id, shown to its owner and (only what the page needs) to anyone', async () => {
    const response = await api('POST', '/v1/payment-request/create', {
      token: owner.token,
      body: linkBody({ userId: owner.userId, customerName: 'Carl Customer', customerEmail: 'carl@example.test', customerPhone: '+15550101' }),
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'success', message: m.created });
    const { _id: id, pRequestURLId, pRequestURL } = response.body.data as { _id: string; pRequestURLId: string; pRequestURL: string };
    expect(pRequestURLId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(pRequestURL).toBe(`${(await testServer()).config.publicUrl}/payment-request/${pRequestURLId}`);

    const seen = await api('GET', `/v1/payment-request/${id}`, { token: owner.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({
      _id: id,
      pRequestURL,
      pRequestURLId,
      status: 'active',
      accountNumber: ownerAccount.accountNumber,
      paymentPurpose: 'Guitar lessons',
      reference: 'INV-42',
      customerName: 'Carl Customer',
      customerEmail: 'carl@example.test',
      customerPhone: '+15550101',
      amount: { type: 'fixed', currency: 'USD', value: 25.5 },
      minimumAmount: null,
      maximumAmount: null,
      isUseLimit: false,
      useLimit: null,
      paymentMethods: ['Card', 'Kestrel'],
      transactions: 0,
      paymentErrors: [],
      expiresAt: null,
    });

    const list = await api('GET', `/v1/payment-request/account/${ownerAccount.accountNumber}`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data[0]._id).toBe(id);

    const visible = await api('GET', `/v1/payment-request/link/${pRequestURLId}`);
    expect(visible.status).toBe(200);
    expect(Object.keys(visible.body.data).sort()).toEqual(
      ['pRequestURLId', 'status', 'paymentPurpose', 'reference', 'ownerName', 'amount', 'minimumAmount', 'maximumAmount', 'paymentMethods', 'isUseLimit', 'limitReached', 'expired', 'expiresAt'].sort(),
    );
    expect(visible.body.data).toMatchObject({ status: 'active', amount: { type: 'fixed', value: 25.5 }, limitReached: false, expired: false });
    expect(JSON.stringify(visible.body)).not.toContain('carl@example.test');
    expect(JSON.stringify(visible.body)).not.toContain(ownerAccount.accountNumber);
    const holder = await api('GET', `/v1/account/${ownerAccount.accountNumber}`, { token: owner.token });
    expect(visible.body.data.ownerName).toBe(holder.body.data.accountHolderName);
    expect((await api('GET', '/v1/payment-request/link/no-such-link')).status).toBe(404);
  });

  it('creates a custom-amount link with a use limit, one method and an expiry', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const link = await createLink({
      amount: { type: 'customer-choosen', currency: 'USD' },
      minimumAmount: '5',
      maximumAmount: 50,
      isUseLimit: true,
      useLimit: 3,
      paymentMethods: ['Kestrel'],
      expiresAt,
      customerEmail: '',
    });
    const seen = await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token });
    expect(seen.body.data).toMatchObject({
      amount: { type: 'customer-choosen', currency: 'USD', value: null },
      minimumAmount: 5,
      maximumAmount: 50,
      isUseLimit: true,
      useLimit: 3,
      paymentMethods: ['Kestrel'],
      customerEmail: null,
      expiresAt,
    });
  });

  it('refuses every bad input with a clear 400 and stores nothing', async () => {
    const before = await linkRowCount(ownerAccount.accountId);
    const cases: [Record<string, unknown>, string][] = [
      [{ paymentPurpose: '' }, 'Payment Purpose is required'],
      [{ paymentPurpose: undefined }, 'Payment Purpose is required'],
      [{ reference: '  ' }, 'Reference is required'],
      [{ tpin: '123' }, m.tpinDigits],
      [{ tpin: '12345' }, m.tpinDigits],
      [{ isUseLimit: true }, m.useLimitRequired],
      [{ isUseLimit: true, useLimit: 0 }, m.useLimitInvalid],
      [{ isUseLimit: true, useLimit: 1.5 }, m.useLimitInvalid],
      [{ amount: { type: 'fixed', currency: 'USD' } }, 'Amount is required'],
      [{ amount: { type: 'fixed', currency: 'USD', value: 0 } }, m.amountInvalid],
      [{ amount: { type: 'fixed', currency: 'USD', value: '1.234' } }, m.amountInvalid],
      [{ amount: { type: 'fixed', currency: 'EUR', value: 5 } }, m.currencyUnsupported],
      [{ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 5 }, 'Maximum Amount is required'],
      [{ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 50, maximumAmount: 5 }, m.minimumAboveMaximum],
      [{ paymentMethods: [] }, m.methodsRequired],
      [{ paymentMethods: ['Bitcoin'] }, 'Payment methods are Card and Kestrel'],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, m.expiresAtPast],
      [{ expiresAt: 'tomorrow' }, m.expiresAtInvalid],
      [{ customerEmail: 'not-an-email' }, m.emailInvalid],
      [{ extra: 1 }, 'Unrecognized key: "extra"'],
    ];
    for (const [overrides, message] of cases) {
      const response = await api('POST', '/v1/payment-request/create', { token: owner.token, body: linkBody(overrides) });
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.error, JSON.stringify(overrides)).toBe(message);
    }
    expect(await linkRowCount(ownerAccount.accountId)).toBe(before);
  });

  it('refuses a wrong TPIN, another user, a stranger and a link whose fee eats the amount, storing nothing', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const as = (token: string, overrides: Record<string, unknown> = {}) => api('POST', '/v1/payment-request/create', { token, body: linkBody(overrides, account) });
    const wrong = await as(user.token, { tpin: account.tpin === '0000' ? '1111' : '0000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('tpin_incorrect');
    expect((await api('POST', '/v1/payment-request/create', { body: linkBody({}, account) })).status).toBe(401);
    const foreign = await as(stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(messages.portal.accountNotAvailable);
    expect((await as(user.token, { userId: stranger.userId })).status).toBe(404);
    const { db } = await testServer();
    await db.updateTable('accounts').set({ paymentRequestFeeFixedCents: 100 }).where('id', '=', account.accountId).execute();
    const tooSmall = await as(user.token, { amount: { type: 'fixed', currency: 'USD', value: 1 } });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body).toMatchObject({ error: paymentMessages.feeTooHigh, code: 'fee_too_high' });
    expect(await linkRowCount(account.accountId)).toBe(0);
  });

  it('honours an Idempotency-Key: a replay answers the first link and stores one', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const call = (purpose: string) =>
      api('POST', '/v1/payment-request/create', { token: user.token, headers: { 'idempotency-key': `create-${account.accountId}` }, body: linkBody({ paymentPurpose: purpose }, account) });
    const first = await call('Lessons');
    const again = await call('Lessons');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect((await call('Something else')).status).toBe(422);
    expect(await linkRowCount(account.accountId)).toBe(1);
  });
});

describe("the owner's routes", () => {
  it('answer 404 to anyone but the owner, and for malformed ids', async () => {
    const link = await createLink();
    const paths: [string, string, unknown?][] = [
      ['GET', `/v1/payment-request/${link.id}`],
      ['PATCH', `/v1/payment-request/update/${link.id}`, { status: 'inactive' }],
      ['PATCH', `/v1/payment-request/limit/update/${link.id}`, { useLimit: 0 }],
      ['GET', `/v1/payment/payment-request/${link.id}`],
      ['GET', `/v1/payment-request/account/${ownerAccount.accountNumber}`],
      ['GET', `/v1/payment/source?type=Link-payment&accountNumber=${ownerAccount.accountNumber}`],
    ];
    for (const [method, path, body] of paths) {
      expect((await api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      const response = await api(method, path, { token: stranger.token, body });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await api('GET', `/v1/payment-request/${id}`, { token: owner.token })).status).toBe(404);
      expect((await api('PATCH', `/v1/payment-request/update/${id}`, { token: owner.token, body: { status: 'inactive' } })).status).toBe(404);
      expect((await api('GET', `/v1/payment/payment-request/${id}`, { token: owner.token })).status).toBe(404);
    }
    const stillActive = await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token });
    expect(stillActive.body.data).toMatchObject({ status: 'active', isUseLimit: false });
    const empty = await api('GET', '/v1/payment/source?type=Link-payment', { token: stranger.token });
    expect(empty.body.data).toEqual([]);
  });

  it('turn a link off and on; a disabled link refuses payment and records the attempt', async () => {
    const link = await createLink();
    const off = await api('PATCH', `/v1/payment-request/update/${link.id}`, { token: owner.token, body: { status: 'inactive' } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ message: m.statusUpdated, data: { status: 'inactive' } });
    expect((await api('GET', `/v1/payment-request/link/${link.pRequestURLId}`)).body.data.status).toBe('inactive');
    const refused = await payByCard(link, cardBody(25.5));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(m.disabled);
    const walletRefused = await payByWallet(link, walletBody(25.5));
    expect(walletRefused.status).toBe(403);
    const seen = await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token });
    expect(seen.body.data.paymentErrors).toEqual([
      { errorMessage: m.disabled, errorSource: { brand: 'Kestrel', type: 'wallet', number: `****${wallet.accountNumber.slice(-4)}` }, errorAt: expect.any(String) },
      { errorMessage: m.disabled, errorSource: { brand: 'visa', type: 'card', number: '424242******4242' }, errorAt: expect.any(String) },
    ]);
    expect((await api('PATCH', `/v1/payment-request/update/${link.id}`, { token: owner.token, body: { status: 'paused' } })).status).toBe(400);
    expect((await api('PATCH', `/v1/payment-request/update/${link.id}`, { token: owner.token, body: { status: 'active' } })).body.data.status).toBe('active');
    expect((await payByCard(link, cardBody(25.5))).status).toBe(200);
  });

  it('set the remaining uses (turning the limit on) and turn the limit off', async () => {
    const link = await createLink();
    const path = `/v1/payment-request/limit/update/${link.id}`;
    const on = await api('PATCH', path, { token: owner.token, body: { useLimit: 2 } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ message: m.limitUpdated, data: { isUseLimit: true, useLimit: 2 } });
    expect((await api('PATCH', path, { token: owner.token, body: { isUseLimit: true, useLimit: '0' } })).body.data).toMatchObject({ isUseLimit: true, useLimit: 0 });
    expect((await api('GET', `/v1/payment-request/link/${link.pRequestURLId}`)).body.data).toMatchObject({ isUseLimit: true, limitReached: true });
    for (const body of [{ useLimit: -1 }, { useLimit: 1.5 }, { useLimit: 'x' }]) {
      const bad = await api('PATCH', path, { token: owner.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(m.limitInvalid);
    }
    expect((await api('PATCH', path, { token: owner.token, body: {} })).body.error).toBe(m.useLimitRequired);
    expect((await api('PATCH', path, { token: owner.token, body: { isUseLimit: false } })).body.data).toMatchObject({ isUseLimit: false, useLimit: null });
  });
});

describe('paying a link by card (public)', () => {
  it('pays a fixed link: card clearing → owner less the fee → fee revenue, listed for the owner with the card masked', async () => {
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: '25.50' } });
    const before = await walletCents(ownerAccount.accountId);
    const response = await payByCard(link, cardBody(25.5, '4242 4242 4242 4242', { reference: 'order 7', phone: '+15550100', countryOrRegion: 'US' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.paid, data: { amount: 25.5, currency: 'USD' } });
    const { transactionId, paymentId } = response.body.data as { transactionId: string; paymentId: string };
    // 2 % of 25.50 = 0.51
    expect(await walletCents(ownerAccount.accountId)).toBe(before + 2550 - 51);
    expect(await postingsOf(transactionId)).toEqual(sorted([['card_clearing', -2550], [ownerAccount.accountId, 2499], ['fee_revenue', 51]]));

    const payments = await api('GET', `/v1/payment/payment-request/${link.id}`, { token: owner.token });
    expect(payments.status).toBe(200);
    expect(payments.body.data).toEqual([
      {
        id: paymentId,
        pRequestId: link.id,
        pRequestURLId: link.pRequestURLId,
        amount: 25.5,
        currency: 'USD',
        fee: 0.51,
        source: { type: 'card', brand: 'visa', number: '424242******4242' },
        payerEmail: 'visitor@example.test',
        reference: 'order 7',
        transactionId,
        createdAt: expect.any(String),
        refunds: [],
        amountRefunded: 0,
        amountRefundable: 25.5,
        refundState: null,
      },
    ]);
    expect((await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token })).body.data.transactions).toBe(1);
    const source = await api('GET', '/v1/payment/source?type=Link-payment', { token: owner.token });
    expect(source.status).toBe(200);
    expect(source.body.data.map((row: { id: string }) => row.id)).toContain(paymentId);
    const narrowed = await api('GET', `/v1/payment/source?type=Link-payment&accountNumber=${ownerAccount.accountNumber}`, { token: owner.token });
    expect(narrowed.body.data.map((row: { id: string }) => row.id)).toContain(paymentId);
    const unknownType = await api('GET', '/v1/payment/source?type=Card-payment', { token: owner.token });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error).toBe(m.sourceTypeInvalid);
    expect((await api('GET', '/v1/payment/source', { token: owner.token })).status).toBe(400);
    // Nothing of the card beyond its first 6 and last 4 digits is stored.
    const { db } = await testServer();
    const stored = await db.selectFrom('paymentRequestPayments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');
    // The CVC as a value of its own: ids and timestamps may contain the digits 937.
    expect(JSON.stringify(stored)).not.toMatch(/(?<![\w.-])937(?![\w.-])/);
    // The charge is found in the books by its processor reference (asked before a charge is voided after an error).
    const { reference } = await db
      .selectFrom('ledgerTransactions')
      .select(sql<string>`metadata->>'processorReference'`.as('reference'))
      .where('id', '=', stored.ledgerTransactionId)
      .executeTakeFirstOrThrow();
    expect(reference).toMatch(/^sbx_/);
    expect(await linkChargeRecorded(db, link.id, reference)).toBe(true);
    expect(await linkChargeRecorded(db, link.id, 'sbx_someone_else')).toBe(false);
  });

  it('leaves the checkout route alone: static /payment/source and /payment/payment-request win over /payment/{urlId}', async () => {
    const store = await createStore();
    const paymentId = await createPayment(store);
    const { db } = await testServer();
    const { urlId } = await db.selectFrom('payments').select('urlId').where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect((await api('GET', `/v1/payment/${urlId}`)).status).toBe(200);
    // Without a token the static routes answer 401 (guarded), not the public checkout's 404.
    expect((await api('GET', '/v1/payment/source?type=Link-payment')).status).toBe(401);
    expect((await api('GET', '/v1/payment/payment-request/00000000-0000-4000-8000-000000000000')).status).toBe(401);
  });

  it('refuses a wrong amount, a method the link does not take, and a bad card, storing nothing', async () => {
    const fixed = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 10 } });
    const fixedId = fixed.id;
    const mismatch = await payByCard(fixed, cardBody(9.99));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe(m.amountMismatch(asCents(1000)));
    const custom = await createLink({ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 5, maximumAmount: 50, paymentMethods: ['Kestrel'] });
    const notCard = await payByCard(custom, cardBody(10));
    expect(notCard.status).toBe(400);
    expect(notCard.body.error).toBe(m.methodNotAllowed('Card'));
    const cardOnly = await createLink({ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 5, maximumAmount: 50, paymentMethods: ['Card'] });
    for (const amount of [4.99, 50.01]) {
      const outside = await payByCard(cardOnly, cardBody(amount));
      expect(outside.status).toBe(400);
      expect(outside.body.error).toBe(m.amountOutOfRange(asCents(500), asCents(5000)));
    }
    const cases: [Record<string, unknown>, string][] = [
      [cardBody('', undefined), m.amountRequired],
      [cardBody(10, undefined, { email: '' }), m.emailRequired],
      [cardBody(10, undefined, { email: 'nope' }), m.emailInvalid],
      [cardBody(10, '4242 4242 4242 4241'), paymentMessages.cardNumberInvalid],
      [cardBody(10, undefined, { cvc: '12' }), paymentMessages.cvcInvalid],
      [cardBody(10, undefined, { expiresIn: '01/20' }), paymentMessages.expired],
      [cardBody(10, undefined, { cardHolderName: '' }), paymentMessages.cardHolderRequired],
      [cardBody(10, undefined, { type: 'wallet' }), paymentMessages.typeCard],
    ];
    for (const [body, message] of cases) {
      const response = await payByCard(cardOnly, body);
      expect(response.status, message).toBe(400);
      expect(response.body.error, message).toBe(message);
    }
    for (const id of [fixedId, custom.id, cardOnly.id]) {
      expect(await errorCount(id)).toBe(0);
      expect(await paymentCount(id)).toBe(0);
    }
    expect((await payByCard({ id: '', pRequestURLId: 'no-such-link' }, cardBody(10))).status).toBe(404);
  });

  it('keeps a declined card in paymentErrors (masked) and gives its use back', async () => {
    const link = await createLink({ isUseLimit: true, useLimit: 1 });
    const declined = await payByCard(link, cardBody(25.5, '4000 0000 0000 0002'));
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ error: 'Your card was declined.', code: 'card_declined' });
    const seen = await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token });
    expect(seen.body.data).toMatchObject({ useLimit: 1, transactions: 0 });
    expect(seen.body.data.paymentErrors).toEqual([
      { errorMessage: 'Your card was declined.', errorSource: { brand: 'visa', type: 'card', number: '400000******0002' }, errorAt: expect.any(String) },
    ]);
    const { db } = await testServer();
    const rows = await db.selectFrom('paymentRequestErrors').selectAll().where('paymentRequestId', '=', link.id).execute();
    expect(JSON.stringify(rows)).not.toContain('4000000000000002');
    expect(JSON.stringify(rows)).not.toMatch(/(?<![\w.-])937(?![\w.-])/);
    // The use came back, so the next (good) card pays and then the link is used up.
    expect((await payByCard(link, cardBody(25.5))).status).toBe(200);
    const used = await payByCard(link, cardBody(25.5));
    expect(used.status).toBe(409);
    expect(used.body.error).toBe(m.limitExceeded);
    expect((await api('GET', `/v1/payment-request/link/${link.pRequestURLId}`)).body.data.limitReached).toBe(true);
  });

  it('refuses an expired link with its own answer', async () => {
    const link = await createLink({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const { db } = await testServer();
    await db.updateTable('paymentRequests').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', link.id).execute();
    expect((await api('GET', `/v1/payment-request/link/${link.pRequestURLId}`)).body.data.expired).toBe(true);
    const refused = await payByCard(link, cardBody(25.5));
    expect(refused.status).toBe(410);
    expect(refused.body.error).toBe(m.expired);
    expect(await paymentCount(link.id)).toBe(0);
  });

  it('rounds the fee half-up from the account’s payment-request fee (fixed cents + percent)', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const { db } = await testServer();
    await db.updateTable('accounts').set({ paymentRequestFeeFixedCents: 30, paymentRequestFeePercent: '2.50' }).where('id', '=', account.accountId).execute();
    const link = await createLink({ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 1, maximumAmount: 100 }, { user, account });
    // 2.5 % of 10.10 = 25.25 cents → 25, plus 30 fixed = 55; of 10.30 = 25.75 → 26, plus 30 = 56.
    const first = await payByCard(link, cardBody(10.1));
    expect(await postingsOf(first.body.data.transactionId)).toEqual(sorted([['card_clearing', -1010], [account.accountId, 955], ['fee_revenue', 55]]));
    const second = await payByCard(link, cardBody(10.3));
    expect(await postingsOf(second.body.data.transactionId)).toEqual(sorted([['card_clearing', -1030], [account.accountId, 974], ['fee_revenue', 56]]));
    expect(await walletCents(account.accountId)).toBe(955 + 974);
    await db.updateTable('accounts').set({ paymentRequestFeeFixedCents: 200 }).where('id', '=', account.accountId).execute();
    const tooHigh = await payByCard(link, cardBody(1));
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.code).toBe('fee_too_high');
    expect(await paymentCount(link.id)).toBe(2);
  });

  it('pays once for a replayed Idempotency-Key, and refuses the key with another card', async () => {
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 12 } });
    const before = await walletCents(ownerAccount.accountId);
    const headers = { 'idempotency-key': `card-${link.id}` };
    const first = await payByCard(link, cardBody(12), headers);
    const again = await payByCard(link, cardBody(12), headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await payByCard(link, cardBody(12, '5555 5555 5555 4444'), headers)).status).toBe(422);
    expect(await paymentCount(link.id)).toBe(1);
    expect(await walletCents(ownerAccount.accountId)).toBe(before + 1200 - 24);
  });

  it('stops payments into an account an operator has locked', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const link = await createLink({}, { user, account });
    await setOperatorLock(account.accountId, true);
    const refused = await payByCard(link, cardBody(25.5));
    expect(refused.status).toBe(423);
    expect(refused.body.error).toBe(m.ownerLocked);
    expect((await payByWallet(link, walletBody(25.5))).status).toBe(423);
    expect(await walletCents(account.accountId)).toBe(0);
    await setOperatorLock(account.accountId, false);
    expect((await payByCard(link, cardBody(25.5))).status).toBe(200);
  });

  it('lets exactly one of 50 parallel card payers take the last use; the others get Limit Exceeded', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 20 }, isUseLimit: true, useLimit: 1 }, { user, account });
    const results = await Promise.all(Array.from({ length: 50 }, () => payByCard(link, cardBody(20))));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    const refused = results.filter((result) => result.status !== 200);
    expect(refused).toHaveLength(49);
    for (const result of refused) expect([result.status, result.body.error]).toEqual([409, m.limitExceeded]);
    expect(await paymentCount(link.id)).toBe(1);
    expect(await walletCents(account.accountId)).toBe(2000 - 40);
    const seen = await api('GET', `/v1/payment-request/${link.id}`, { token: user.token });
    expect(seen.body.data).toMatchObject({ useLimit: 0, transactions: 1 });
    expect(seen.body.data.paymentErrors).toHaveLength(49);
  });
});

describe('paying a link from a Kestrel wallet', () => {
  it('pays a custom amount: payer → owner less the fee → fee revenue', async () => {
    const link = await createLink({ amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: 5, maximumAmount: 50 });
    const before = { payer: await walletCents(wallet.accountId), owner: await walletCents(ownerAccount.accountId) };
    const response = await payByWallet(link, { ...walletBody('37.45'), userId: payer.userId, reference: 'May' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.paid, data: { amount: 37.45, currency: 'USD' } });
    // 2 % of 37.45 = 74.9 cents → 75
    expect(await walletCents(wallet.accountId)).toBe(before.payer - 3745);
    expect(await walletCents(ownerAccount.accountId)).toBe(before.owner + 3745 - 75);
    expect(await postingsOf(response.body.data.transactionId)).toEqual(sorted([[wallet.accountId, -3745], [ownerAccount.accountId, 3670], ['fee_revenue', 75]]));
    const payments = await api('GET', `/v1/payment/payment-request/${link.id}`, { token: owner.token });
    expect(payments.body.data[0]).toMatchObject({ amount: 37.45, fee: 0.75, source: { type: 'wallet', brand: null, number: `****${wallet.accountNumber.slice(-4)}` }, reference: 'May' });

    const outside = await payByWallet(link, walletBody(51));
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe(m.amountOutOfRange(asCents(500), asCents(5000)));
  });

  it('needs a signed-in payer who owns the account, and refuses paying a link into the account paying it', async () => {
    const link = await createLink();
    expect((await api('POST', `/v1/payment-request/kestrel/complete-payment/${link.pRequestURLId}`, { body: walletBody(25.5) })).status).toBe(401);
    const foreign = await payByWallet(link, walletBody(25.5), stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(messages.portal.accountNotAvailable);
    const impersonating = await payByWallet(link, { ...walletBody(25.5), userId: stranger.userId });
    expect(impersonating.status).toBe(403);
    const own = await payByWallet(link, walletBody(25.5, ownerAccount), owner.token);
    expect(own.status).toBe(400);
    expect(own.body.error).toBe(m.ownLink);
    const badInputs: [Record<string, unknown>, string][] = [
      [{ ...walletBody(25.5), tpin: '' }, checkoutMessages.tpinRequired],
      [{ ...walletBody(25.5), tpin: '12a4' }, checkoutMessages.tpinInvalid],
      [{ ...walletBody(''), tpin: wallet.tpin }, m.amountRequired],
      [{ ...walletBody(25.5), accountNumber: undefined }, 'accountNumber is required'],
      [{ ...walletBody(25.5), email: 'nope' }, m.emailInvalid],
    ];
    for (const [body, message] of badInputs) {
      const response = await payByWallet(link, body);
      expect(response.status, message).toBe(400);
      expect(response.body.error, message).toBe(message);
    }
    const cardOnly = await createLink({ paymentMethods: ['Card'] });
    const notWallet = await payByWallet(cardOnly, walletBody(25.5));
    expect(notWallet.status).toBe(400);
    expect(notWallet.body.error).toBe(m.methodNotAllowed('Kestrel'));
    expect(await paymentCount(link.id)).toBe(0);
    expect(await errorCount(link.id)).toBe(0);
  });

  it('records a wrong TPIN and a short balance, locks after five wrong TPINs, and moves nothing', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    await fundAccount(account.accountId, 1_000);
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 20 }, isUseLimit: true, useLimit: 5 });
    const short = await payByWallet(link, walletBody(20, account), user.token);
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Insufficient balance');
    const wrongTpin = account.tpin === '0000' ? '1111' : '0000';
    for (let attempt = 1; attempt < TPIN_MAX_FAILED_ATTEMPTS; attempt += 1) {
      const refused = await payByWallet(link, { ...walletBody(20, account), tpin: wrongTpin }, user.token);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('tpin_incorrect');
    }
    expect((await payByWallet(link, { ...walletBody(20, account), tpin: wrongTpin }, user.token)).status).toBe(423);
    const locked = await payByWallet(link, walletBody(20, account), user.token);
    expect(locked.status).toBe(423);
    expect(locked.body.error).toBe(messages.tpin.locked);
    expect(await walletCents(account.accountId)).toBe(1_000);
    const seen = await api('GET', `/v1/payment-request/${link.id}`, { token: owner.token });
    expect(seen.body.data.useLimit).toBe(5);
    const reasons = (seen.body.data.paymentErrors as { errorMessage: string }[]).map((error) => error.errorMessage);
    expect(reasons).toHaveLength(1 + TPIN_MAX_FAILED_ATTEMPTS + 1);
    expect(reasons.at(-1)).toBe('Insufficient balance');
    expect(reasons[0]).toBe(messages.tpin.locked);
    expect(reasons.filter((reason) => reason.startsWith(messages.tpin.wrong))).toHaveLength(TPIN_MAX_FAILED_ATTEMPTS - 1);
  });

  it('stops a payer whose account an operator has locked', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    await fundAccount(account.accountId, 10_000);
    const link = await createLink();
    await setOperatorLock(account.accountId, true);
    const refused = await payByWallet(link, walletBody(25.5, account), user.token);
    expect(refused.status).toBe(423);
    expect(refused.body).toMatchObject({ code: 'money_movement_locked', error: messages.tpin.operatorLocked });
    expect(await walletCents(account.accountId)).toBe(10_000);
  });

  it('pays once for a replayed Idempotency-Key', async () => {
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 3 } });
    const before = await walletCents(wallet.accountId);
    const headers = { 'idempotency-key': `wallet-${link.id}` };
    const first = await payByWallet(link, walletBody(3), payer.token, headers);
    expect(first.status).toBe(200);
    const again = await payByWallet(link, walletBody(3), payer.token, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await walletCents(wallet.accountId)).toBe(before - 300);
    expect(await paymentCount(link.id)).toBe(1);
  });

  it('lets exactly one of 10 parallel wallet payments take the last use', async () => {
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 4 }, isUseLimit: true, useLimit: 1 });
    const before = await walletCents(wallet.accountId);
    const results = await Promise.all(Array.from({ length: 10 }, () => payByWallet(link, walletBody(4))));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    for (const result of results.filter((candidate) => candidate.status !== 200)) expect([result.status, result.body.error]).toEqual([409, m.limitExceeded]);
    expect(await walletCents(wallet.accountId)).toBe(before - 400);
    expect(await paymentCount(link.id)).toBe(1);
  });
});

describe('the books', () => {
  it('verify after every payment above', async () => {
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe("the dashboard's payment counters", () => {
  it('count the payments an account received through its links as well as through its stores', async () => {
    const receiver = await createUser();
    const receiverAccount = await createAccount(receiver);
    const summary = async () => (await api('GET', `/v1/account/${receiverAccount.accountNumber}/summary`, { token: receiver.token })).body.data;
    expect(await summary()).toMatchObject({ totalPayments: 0, successPayments: 0 });
    const link = await createLink({ amount: { type: 'fixed', currency: 'USD', value: 3 } }, { user: receiver, account: receiverAccount });
    expect((await payByCard(link, cardBody(3, '4242 4242 4242 4242'))).status).toBe(200);
    expect((await payByWallet(link, walletBody(3))).status).toBe(200);
    // A declined card is no payment received.
    expect((await payByCard(link, cardBody(3, '4000 0000 0000 0002'))).status).toBe(402);
    expect(await summary()).toMatchObject({ totalPayments: 2, successPayments: 2 });
  });
});

import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createHolder, createOperator, unique, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { postStore, storeFields, storeImages } from '../../../test/gateway-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';

async function balanceCents(user: TestUser, account: TestAccount): Promise<number> {
  const response = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

async function auditRows(subjectId: string, action: string) {
  const { db } = await testServer();
  return db.selectFrom('auditLog').selectAll().where('subjectId', '=', subjectId).where('action', '=', action).execute();
}

async function activityNames(h: { user: TestUser; account: TestAccount }): Promise<string> {
  const response = await api('GET', `/v1/activities?accountId=${h.account.accountId}`, { token: h.user.token });
  return JSON.stringify(response.body);
}

describe('operator console routes are for operators only', () => {
  it('answers 404 to a signed-in holder and 401 without a session, on every new route', async () => {
    const h = await createHolder();
    const id = h.account.accountId;
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/operator/overview'],
      ['GET', '/v1/operator/accounts?q=12'],
      ['GET', `/v1/operator/accounts/${id}`],
      ['POST', `/v1/operator/accounts/${id}/lock`, { reason: 'x' }],
      ['POST', `/v1/operator/accounts/${id}/unlock`, { reason: 'x' }],
      ['POST', `/v1/operator/accounts/${id}/fund`, { amount: 1, currency: 'USD', reason: 'x' }],
      ['POST', `/v1/operator/accounts/${id}/identity/request-documents`, { reason: 'x' }],
      ['GET', '/v1/operator/ledger-health'],
      ['GET', '/v1/operator/audit-log'],
    ];
    for (const [method, url, body] of calls) {
      expect((await api(method, url, { token: h.user.token, body })).status, `${method} ${url}`).toBe(404);
      expect((await api(method, url, { body })).status, `${method} ${url}`).toBe(401);
    }
    expect(await balanceCents(h.user, h.account)).toBe(0);
    const { db } = await testServer();
    expect((await db.selectFrom('accounts').select('moneyMovementLocked').where('id', '=', id).executeTakeFirstOrThrow()).moneyMovementLocked).toBe(false);
  });

  it('tells the web app who is an operator through the profile', async () => {
    const ops = await createOperator();
    const h = await createHolder();
    expect((await api('GET', `/v1/user/${ops.userId}`, { token: ops.token })).body.data.isOperator).toBe(true);
    expect((await api('GET', `/v1/user/${h.user.userId}`, { token: h.user.token })).body.data.isOperator).toBe(false);
  });
});

describe('funding a wallet', () => {
  it('credits the wallet from the funding account once per Idempotency-Key, balanced and audited', async () => {
    const ops = await createOperator();
    const h = await createHolder();
    const key = unique('fund');
    const fund = () =>
      api('POST', `/v1/operator/accounts/${h.account.accountId}/fund`, { token: ops.token, headers: { 'idempotency-key': key }, body: { amount: '40.25', currency: 'USD', reason: 'Goodwill credit' } });
    const first = await fund();
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Wallet funded');
    expect(first.body.data).toMatchObject({ accountId: h.account.accountId, currency: 'USD', amount: 40.25, balance: 40.25 });
    const replay = await fund();
    expect(replay.status).toBe(200);
    expect(replay.body.data.transactionId).toBe(first.body.data.transactionId);
    expect(await balanceCents(h.user, h.account)).toBe(4025);

    const audit = await auditRows(h.account.accountId, 'account.funded');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: ops.userId, details: { reason: 'Goodwill credit', amountCents: 4025, before: { balanceCents: 0 }, after: { balanceCents: 4025 } } });
    expect(audit[0]!.ip).toBeTruthy();
    expect(await activityNames(h)).toContain('Wallet funded');
    expect((await verifyLedger((await testServer()).db)).problems).toEqual([]);
  });

  it('needs a reason and a valid amount', async () => {
    const ops = await createOperator();
    const h = await createHolder();
    const noReason = await api('POST', `/v1/operator/accounts/${h.account.accountId}/fund`, { token: ops.token, body: { amount: 5, currency: 'USD', reason: '  ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields).toMatchObject({ reason: 'Reason is required' });
    const badAmount = await api('POST', `/v1/operator/accounts/${h.account.accountId}/fund`, { token: ops.token, body: { amount: '1.001', currency: 'USD', reason: 'r' } });
    expect(badAmount.status).toBe(400);
    expect(await balanceCents(h.user, h.account)).toBe(0);
  });
});

describe('locking money movement', () => {
  it('refuses transfers and withdrawals while locked, and lets them through after unlock', async () => {
    const ops = await createOperator();
    const h = await createHolder(10_000);
    const other = await createHolder();
    const transfer = () =>
      api('POST', '/v1/account/transfer_balance', {
        token: h.user.token,
        body: { userId: h.user.userId, debitAccountKey: h.account.userName, creditAccountKey: other.account.userName, currency: 'USD', balance: 10, tpin: Number(h.account.tpin) },
      });

    const noReason = await api('POST', `/v1/operator/accounts/${h.account.accountId}/lock`, { token: ops.token, body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields).toMatchObject({ reason: 'Reason is required' });

    const lock = await api('POST', `/v1/operator/accounts/${h.account.accountId}/lock`, { token: ops.token, body: { reason: 'Suspected fraud' } });
    expect(lock.status).toBe(200);
    expect(lock.body).toMatchObject({ message: 'Money movement locked', data: { moneyMovementLocked: true } });

    const refused = await transfer();
    expect(refused.status).toBe(423);
    expect(refused.body).toMatchObject({ code: 'money_movement_locked', error: 'Money movement on this account is locked by Kestrel. Please contact support.' });
    const withdraw = await api('POST', '/v1/bank-withdraw/create', {
      token: h.user.token,
      body: {
        accountNumber: h.account.accountNumber, userId: h.user.userId, tpin: Number(h.account.tpin), country: 'United States', bankName: 'First Test Bank', branchName: '',
        accountType: 'checking', bankAccountNumber: '000123456789', routingNumber: '021000021', accountHolderName: 'Test Holder', currency: 'USD', amount: 5,
      },
    });
    expect(withdraw.status).toBe(423);
    expect(await balanceCents(h.user, h.account)).toBe(10_000);
    expect(await activityNames(h)).toContain('Money movement locked');

    const store = await postStore(h.user.token, storeFields(h.account), storeImages());
    expect(store.status).toBe(423);
    expect(store.body.code).toBe('money_movement_locked');
    const detail = await api('GET', `/v1/operator/accounts/${h.account.accountId}`, { token: ops.token });
    expect(detail.body.data.account).toMatchObject({ moneyMovementLocked: true, moneyMovementLockReason: 'Suspected fraud' });

    const unlock = await api('POST', `/v1/operator/accounts/${h.account.accountId}/unlock`, { token: ops.token, body: { reason: 'Cleared' } });
    expect(unlock.status).toBe(200);
    expect((await transfer()).status).toBe(200);
    expect(await balanceCents(h.user, h.account)).toBe(9_000);

    const audit = await auditRows(h.account.accountId, 'account.money_locked');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: ops.userId, details: { reason: 'Suspected fraud', before: { moneyMovementLocked: false }, after: { moneyMovementLocked: true } } });
    expect(await auditRows(h.account.accountId, 'account.money_unlocked')).toHaveLength(1);
  });
});

describe('accounts, queues, ledger health and the audit log', () => {
  it('finds an account by number, user name, e-mail or phone and shows its detail', async () => {
    const ops = await createOperator();
    const h = await createHolder(2_500);
    const { db } = await testServer();
    const phone = (await db.selectFrom('accounts').select('accountPhone').where('id', '=', h.account.accountId).executeTakeFirstOrThrow()).accountPhone;
    for (const q of [h.account.accountNumber, h.account.userName.toUpperCase(), h.account.accountEmail, phone]) {
      const found = await api('GET', `/v1/operator/accounts?q=${encodeURIComponent(q)}`, { token: ops.token });
      expect(found.status, q).toBe(200);
      expect(found.body.data.map((row: { accountId: string }) => row.accountId), q).toContain(h.account.accountId);
    }
    expect((await api('GET', '/v1/operator/accounts?q=x', { token: ops.token })).status).toBe(400);
    const detail = await api('GET', `/v1/operator/accounts/${h.account.accountId}`, { token: ops.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data.balances).toEqual([{ currency: 'USD', amount: 25 }]);
    expect(detail.body.data.postings[0]).toMatchObject({ currency: 'USD', amount: 25 });
  });

  it('asks for new documents: the holder sees the reason and the account leaves the queue', async () => {
    const ops = await createOperator();
    const h = await createHolder();
    const { db } = await testServer();
    await db.insertInto('identityDocuments').values({ accountId: h.account.accountId, storedName: `${unique('doc')}.png`, mimeType: 'image/png', sizeBytes: 10 }).execute();
    const queued = async () => ((await api('GET', '/v1/operator/identity-reviews', { token: ops.token })).body.data as { accountId: string }[]).some((r) => r.accountId === h.account.accountId);
    expect(await queued()).toBe(true);
    const url = `/v1/operator/accounts/${h.account.accountId}/identity/request-documents`;
    expect((await api('POST', url, { token: ops.token, body: {} })).status).toBe(400);
    const asked = await api('POST', url, { token: ops.token, body: { reason: 'The photo is blurred' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ message: 'New documents requested', data: { documentsSetAside: 1 } });
    expect(await queued()).toBe(false);
    expect(await activityNames(h)).toContain('The photo is blurred');
    expect(await auditRows(h.account.accountId, 'account.identity_documents_requested')).toHaveLength(1);
  });

  it('counts the queues, reports the ledger healthy and pages the audit log newest first', async () => {
    const ops = await createOperator();
    const h = await createHolder();
    const overview = await api('GET', '/v1/operator/overview', { token: ops.token });
    expect(overview.status).toBe(200);
    expect(Object.keys(overview.body.data).sort()).toEqual(['callbacksFailing', 'identityReviewsWaiting', 'reconciliationOpen', 'storesPending', 'withdrawalsPending', 'withdrawalsProcessing']);

    await api('POST', `/v1/operator/accounts/${h.account.accountId}/fund`, { token: ops.token, body: { amount: 3, currency: 'USD', reason: 'first' } });
    const held = await api('POST', '/v1/bank-withdraw/create', {
      token: h.user.token,
      body: {
        accountNumber: h.account.accountNumber, userId: h.user.userId, tpin: Number(h.account.tpin), country: 'United States', bankName: 'First Test Bank', branchName: '',
        accountType: 'checking', bankAccountNumber: '000123456789', routingNumber: '021000021', accountHolderName: 'Test Holder', currency: 'USD', amount: 1,
      },
    });
    expect(held.status).toBe(201);
    await api('POST', `/v1/operator/accounts/${h.account.accountId}/lock`, { token: ops.token, body: { reason: 'second' } });
    const health = await api('GET', '/v1/operator/ledger-health', { token: ops.token });
    expect(health.status).toBe(200);
    expect(health.body.data.healthy).toBe(true);
    expect(health.body.data.checks.every((check: { ok: boolean }) => check.ok)).toBe(true);
    expect(health.body.data.systemAccounts.some((row: { code: string }) => row.code === 'funding')).toBe(true);
    const { db } = await testServer();
    const pending = await db.selectFrom('bankWithdrawals').select((eb) => eb.fn.sum<string>('amountCents').as('total')).where('status', 'in', ['Pending', 'Processing']).where('currency', '=', 'USD').executeTakeFirstOrThrow();
    const usdInFlight = health.body.data.totalInFlight.find((row: { currency: string }) => row.currency === 'USD');
    expect(Math.round((usdInFlight?.amount ?? 0) * 100)).toBe(Number(pending.total));
    expect(Number(pending.total)).toBeGreaterThanOrEqual(100);

    const page = await api('GET', `/v1/operator/audit-log?actor=${encodeURIComponent(ops.email)}&action=account.&pageSize=1`, { token: ops.token });
    expect(page.status).toBe(200);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.items).toHaveLength(1);
    expect(page.body.data.items[0]).toMatchObject({ action: 'account.money_locked', actorEmail: ops.email, subjectId: h.account.accountId });
    const second = await api('GET', `/v1/operator/audit-log?actor=${ops.userId}&action=account.&page=2&pageSize=1`, { token: ops.token });
    expect(second.body.data.items[0]).toMatchObject({ action: 'account.funded' });
    const bySubject = await api('GET', `/v1/operator/audit-log?subject=${h.account.accountId}&action=account.funded`, { token: ops.token });
    expect(bySubject.body.data.total).toBe(1);
    const future = await api('GET', `/v1/operator/audit-log?actor=${ops.userId}&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { token: ops.token });
    expect(future.body.data.total).toBe(0);
  });
});

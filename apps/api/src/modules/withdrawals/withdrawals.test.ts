import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { operatorToken } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { createHolder, withdrawalBodyFor, type TestAccount, type TestHolder, type TestUser } from '../../../test/factories.ts';
import { verifyLedger } from '../ledger/verify.ts';

async function balanceCents(user: TestUser, account: TestAccount): Promise<number> {
  const response = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
  expect(response.status).toBe(200);
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

/** A valid US body of US$ 25.50, `overrides` for the field under test. */
const usBody = (h: TestHolder, overrides: Record<string, unknown> = {}) => withdrawalBodyFor(h, 25.5, overrides);

function create(h: { user: TestUser; account: TestAccount }, body: Record<string, unknown>, key?: string) {
  return api('POST', '/v1/bank-withdraw/create', { token: h.user.token, body, headers: key ? { 'idempotency-key': key } : {} });
}

async function withdrawalCount(accountId: string): Promise<number> {
  const { db } = await testServer();
  const rows = await db.selectFrom('bankWithdrawals').select('id').where('accountId', '=', accountId).execute();
  return rows.length;
}

describe('POST /v1/bank-withdraw/create', () => {
  it('answers a Pending withdrawal, holds the money in payouts in flight and masks the bank account number', async () => {
    const h = await createHolder(10_000);
    const response = await create(h, usBody(h));
    expect(response.status).toBe(201);
    expect(response.body.message).toBe('Your withdraw request is pending!');
    expect(response.body.data).toMatchObject({
      status: 'Pending',
      amount: 25.5,
      currency: 'USD',
      country: 'United States',
      accountType: 'CHECKING',
      branchName: null,
      bankAccountNumber: '****6789',
      routingNumber: '021000021',
      accountNumber: h.account.accountNumber,
    });
    expect(await balanceCents(h.user, h.account)).toBe(7_450);

    const { db } = await testServer();
    const row = await db.selectFrom('bankWithdrawals').selectAll().where('id', '=', response.body.data._id).executeTakeFirstOrThrow();
    expect(row.bankAccountNumber).toBe('000123456789');
    const postings = await db
      .selectFrom('ledgerPostings')
      .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
      .select(['ledgerAccounts.systemCode', 'ledgerAccounts.accountId', 'ledgerPostings.amountCents'])
      .where('ledgerPostings.ledgerTransactionId', '=', row.holdTransactionId)
      .orderBy('ledgerPostings.amountCents')
      .execute();
    expect(postings).toEqual([
      { systemCode: null, accountId: h.account.accountId, amountCents: -2_550 },
      { systemCode: 'payouts_in_flight', accountId: null, amountCents: 2_550 },
    ]);
    const activities = await api('GET', `/v1/activities?accountId=${h.account.accountId}`, { token: h.user.token });
    expect(JSON.stringify(activities.body)).toContain('Bank withdrawal requested');
    expect(JSON.stringify(activities.body)).not.toContain('000123456789');
    const audit = await db.selectFrom('auditLog').select(['action', 'actorUserId']).where('subjectId', '=', row.id).execute();
    expect(audit).toEqual([{ action: 'withdrawal.created', actorUserId: h.user.userId }]);
  });

  it('takes a Bangladesh withdrawal with its branch name and drops the account type', async () => {
    const h = await createHolder(10_000);
    const response = await create(h, usBody(h, { country: 'Bangladesh', branchName: 'Gulshan', accountType: 'savings', routingNumber: '123456789', amount: '10' }));
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ country: 'Bangladesh', branchName: 'Gulshan', accountType: null, amount: 10 });
  });

  it('refuses every bad input with a clear 4xx and holds nothing', async () => {
    const h = await createHolder(10_000);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ tpin: '12' }, 400, 'TPIN must be 4 digits'],
      [{ tpin: '12345' }, 400, 'TPIN must be 4 digits'],
      [{ country: 'India' }, 400, 'Country must be United States or Bangladesh'],
      [{ bankName: '' }, 400, 'Bank Name is required'],
      [{ bankName: undefined }, 400, 'Bank Name is required'],
      [{ accountType: '' }, 400, 'Account Type is required'],
      [{ accountType: 'current' }, 400, 'Account type must be Checking or Savings'],
      [{ country: 'Bangladesh', branchName: '', routingNumber: '123456789' }, 400, 'Branch Name is required'],
      [{ bankAccountNumber: '' }, 400, 'Bank Account Number is required'],
      [{ bankAccountNumber: '12ab34' }, 400, 'Bank account number must be 4 to 20 digits'],
      [{ routingNumber: '12345' }, 400, 'Routing number must be 9 digits'],
      [{ routingNumber: '123456789' }, 400, 'This is not a valid US routing number'],
      [{ accountHolderName: ' ' }, 400, 'Account Holder Name is required'],
      [{ currency: 'EUR' }, 400, 'Only USD withdrawals are supported'],
      [{ amount: '' }, 400, 'Amount is required'],
      [{ amount: 0 }, 400, 'Enter an amount greater than 0 with at most two decimals'],
      [{ amount: -5 }, 400, 'Enter an amount greater than 0 with at most two decimals'],
      [{ amount: '1.234' }, 400, 'Enter an amount greater than 0 with at most two decimals'],
      [{ amount: '1e3' }, 400, 'Enter an amount greater than 0 with at most two decimals'],
      [{ amount: 100.01 }, 400, 'Insufficient balance'],
      [{ extra: 'x' }, 400, ''],
      [{ accountNumber: '99999999999' }, 404, 'Account not available!'],
    ];
    for (const [overrides, status, message] of cases) {
      const response = await create(h, usBody(h, overrides));
      expect(response.status, JSON.stringify(overrides)).toBe(status);
      expect(response.body.status).toBe('error');
      if (message) expect(response.body.error).toBe(message);
    }
    expect(await balanceCents(h.user, h.account)).toBe(10_000);
    expect(await withdrawalCount(h.account.accountId)).toBe(0);
  });

  it('withdraws the whole balance exactly, then nothing more', async () => {
    const h = await createHolder(1_001);
    expect((await create(h, usBody(h, { amount: '10.01' }))).status).toBe(201);
    expect(await balanceCents(h.user, h.account)).toBe(0);
    const again = await create(h, usBody(h, { amount: '0.01' }));
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('Insufficient balance');
  });

  it("refuses another user's account (404) and a body naming someone else", async () => {
    const owner = await createHolder(10_000);
    const other = await createHolder(10_000);
    const theirs = await create(other, usBody(other, { accountNumber: owner.account.accountNumber, tpin: Number(owner.account.tpin) }));
    expect(theirs.status).toBe(404);
    const impersonating = await create(other, usBody(other, { userId: owner.user.userId }));
    expect(impersonating.status).toBe(404);
    expect((await api('POST', '/v1/bank-withdraw/create', { body: usBody(owner) })).status).toBe(401);
    expect(await balanceCents(owner.user, owner.account)).toBe(10_000);
    expect(await balanceCents(other.user, other.account)).toBe(10_000);
  });

  it('counts wrong TPINs and locks after five', async () => {
    const h = await createHolder(10_000);
    const wrong = String((Number(h.account.tpin) + 1) % 10_000).padStart(4, '0');
    const first = await create(h, usBody(h, { tpin: wrong }));
    expect(first.status).toBe(400);
    expect(first.body.code).toBe('tpin_incorrect');
    for (let i = 0; i < 4; i++) await create(h, usBody(h, { tpin: wrong }));
    const locked = await create(h, usBody(h));
    expect(locked.status).toBe(423);
    expect(await balanceCents(h.user, h.account)).toBe(10_000);
    expect(await withdrawalCount(h.account.accountId)).toBe(0);
  });

  it('with an Idempotency-Key holds the money once, however often and however concurrently it is sent', async () => {
    const h = await createHolder(10_000);
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => create(h, usBody(h, { amount: 12 }), key)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(new Set(answers.map((a) => a.body.data._id)).size).toBe(1);
    const replay = await create(h, usBody(h, { amount: 12 }), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data._id).toBe(answers[0]!.body.data._id);
    expect(await balanceCents(h.user, h.account)).toBe(8_800);
    expect(await withdrawalCount(h.account.accountId)).toBe(1);
    const reused = await create(h, usBody(h, { amount: 13 }), key);
    expect(reused.status).toBe(422);
    expect(await balanceCents(h.user, h.account)).toBe(8_800);
  });
});

describe('GET /v1/bank-withdraw/account/{accountNumber}', () => {
  it("lists the owner's withdrawals newest first, masked, and is 404 to everyone else", async () => {
    const h = await createHolder(10_000);
    const first = await create(h, usBody(h, { amount: 1 }));
    const second = await create(h, usBody(h, { amount: 2, bankAccountNumber: '55554444' }));
    const list = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: h.user.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { _id: string }) => w._id)).toEqual([second.body.data._id, first.body.data._id]);
    expect(list.body.data[0]).toMatchObject({ amount: 2, bankAccountNumber: '****4444', status: 'Pending' });
    expect(JSON.stringify(list.body)).not.toContain('55554444');

    const other = await createHolder();
    const theirs = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: other.user.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('Account not available!');
    expect((await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`)).status).toBe(401);
    const empty = await api('GET', `/v1/bank-withdraw/account/${other.account.accountNumber}`, { token: other.user.token });
    expect(empty.body.data).toEqual([]);
  });

  it("feeds the dashboard's Total Withdraw", async () => {
    const h = await createHolder(10_000);
    await create(h, usBody(h, { amount: 1 }));
    await create(h, usBody(h, { amount: 1 }));
    const summary = await api('GET', `/v1/account/${h.account.accountNumber}/summary`, { token: h.user.token });
    expect(summary.body.data.totalWithdraw).toBe(2);
  });
});

describe('operators move withdrawals', () => {
  const move = (token: string, id: string, action: string, body?: unknown) =>
    api('POST', `/v1/operator/withdrawals/${id}/${action}`, { token, ...(body === undefined ? {} : { body }) });

  it('Pending → Processing → Completed keeps the money out; every step is audited and an activity', async () => {
    const ops = await operatorToken();
    const h = await createHolder(10_000);
    const { _id: id, createdAt } = (await create(h, usBody(h, { amount: 40 }))).body.data as { _id: string; createdAt: string };

    const queue = await api('GET', '/v1/operator/withdrawals?status=Pending', { token: ops });
    expect(queue.status).toBe(200);
    const pending = queue.body.data as { _id: string; createdAt: string }[];
    const entry = pending.find((w) => w._id === id);
    if (pending.length < 500) {
      expect(entry).toMatchObject({ bankAccountNumber: '000123456789', accountNumber: h.account.accountNumber, status: 'Pending' });
    } else if (!entry) {
      // The suite's other files share this database: a full queue (500, oldest first) holds only older ones.
      expect(pending.every((w) => Date.parse(w.createdAt) <= Date.parse(createdAt))).toBe(true);
    }

    const early = await move(ops, id, 'complete');
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('This withdrawal is Pending; it cannot be completed');

    const processing = await move(ops, id, 'processing');
    expect(processing.status).toBe(200);
    expect(processing.body.data.status).toBe('Processing');
    const completed = await move(ops, id, 'complete');
    expect(completed.status).toBe(200);
    expect(completed.body.data.status).toBe('Completed');
    expect(await balanceCents(h.user, h.account)).toBe(6_000);

    for (const action of ['processing', 'complete']) expect((await move(ops, id, action)).status).toBe(409);
    expect((await move(ops, id, 'fail', { reason: 'late' })).status).toBe(409);
    expect(await balanceCents(h.user, h.account)).toBe(6_000);

    const list = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: h.user.token });
    expect(list.body.data[0].status).toBe('Completed');
    const activities = JSON.stringify((await api('GET', `/v1/activities?accountId=${h.account.accountId}`, { token: h.user.token })).body);
    expect(activities).toContain('Bank withdrawal processing');
    expect(activities).toContain('Bank withdrawal completed');
    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').select('action').where('subjectId', '=', id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['withdrawal.created', 'withdrawal.processing', 'withdrawal.completed']);
  });

  it('Failed needs a reason and returns the money exactly once', async () => {
    const ops = await operatorToken();
    const h = await createHolder(10_000);
    const { _id: id } = (await create(h, usBody(h, { amount: '33.33' }))).body.data;
    expect(await balanceCents(h.user, h.account)).toBe(6_667);
    expect((await move(ops, id, 'fail', { reason: 'closed account' })).status).toBe(409);
    await move(ops, id, 'processing');

    for (const body of [{}, { reason: '  ' }]) {
      const refused = await move(ops, id, 'fail', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('A reason is required to fail a withdrawal');
    }
    const failed = await move(ops, id, 'fail', { reason: 'Bank account closed' });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ status: 'Failed', failureReason: 'Bank account closed' });
    expect(await balanceCents(h.user, h.account)).toBe(10_000);

    const again = await move(ops, id, 'fail', { reason: 'again' });
    expect(again.status).toBe(409);
    expect((await move(ops, id, 'complete')).status).toBe(409);
    expect(await balanceCents(h.user, h.account)).toBe(10_000);
    const activities = JSON.stringify((await api('GET', `/v1/activities?accountId=${h.account.accountId}`, { token: h.user.token })).body);
    expect(activities).toContain('Bank withdrawal failed');
    expect(activities).toContain('Bank account closed');
    // Both movements are in the holder's transaction list: the hold and the return.
    const transactions = await api('GET', `/v1/transaction/account/${h.account.accountNumber}`, { token: h.user.token });
    const purposes = (transactions.body.data as { transactions: { transactionFor: string; amount: number }[] }[]).flatMap((group) =>
      group.transactions.map((t) => `${t.transactionFor} ${t.amount}`),
    );
    expect(purposes).toEqual(expect.arrayContaining(['Bank Withdraw 33.33', 'Bank Withdraw Returned 33.33']));
  });

  it('racing operators: one wins, the other gets 409, and the money moves once', async () => {
    const [opsA, opsB] = await Promise.all([operatorToken(), operatorToken()]);
    const h = await createHolder(100_000);
    for (let round = 0; round < 5; round++) {
      const { _id: id } = (await create(h, usBody(h, { amount: 10 }))).body.data;
      const processing = await Promise.all([move(opsA, id, 'processing'), move(opsB, id, 'processing')]);
      expect(processing.map((r) => r.status).sort()).toEqual([200, 409]);
      const before = await balanceCents(h.user, h.account);
      const [complete, fail] = await Promise.all([move(opsA, id, 'complete'), move(opsB, id, 'fail', { reason: 'race' })]);
      expect([complete.status, fail.status].sort()).toEqual([200, 409]);
      const loser = complete.status === 409 ? complete : fail;
      expect(loser.body.code).toBe('withdrawal_status_conflict');
      const after = await balanceCents(h.user, h.account);
      expect(after - before).toBe(fail.status === 200 ? 1_000 : 0);
    }
    const report = await verifyLedger((await testServer()).db);
    expect(report.problems).toEqual([]);
  });

  it('is invisible to everyone but operators; unknown ids are 404', async () => {
    const h = await createHolder(10_000);
    const { _id: id } = (await create(h, usBody(h, { amount: 1 }))).body.data;
    expect((await api('GET', '/v1/operator/withdrawals', { token: h.user.token })).status).toBe(404);
    for (const action of ['processing', 'complete']) expect((await move(h.user.token, id, action)).status).toBe(404);
    expect((await move(h.user.token, id, 'fail', { reason: 'x' })).status).toBe(404);
    expect((await api('GET', '/v1/operator/withdrawals')).status).toBe(401);
    const ops = await operatorToken();
    expect((await move(ops, randomUUID(), 'processing')).status).toBe(404);
    expect((await move(ops, 'not-a-uuid', 'processing')).status).toBe(400);
    expect((await api('GET', '/v1/operator/withdrawals?status=Lost', { token: ops })).status).toBe(400);
    const list = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: h.user.token });
    expect(list.body.data[0].status).toBe('Pending');
  });

  it('leaves the ledger verified after a mixed run', async () => {
    const ops = await operatorToken();
    const h = await createHolder(50_000);
    const ids: string[] = [];
    for (const amount of [1, 2.5, 3.33, 4]) ids.push((await create(h, usBody(h, { amount }))).body.data._id);
    for (const id of ids.slice(0, 3)) await move(ops, id, 'processing');
    await move(ops, ids[0]!, 'complete');
    await move(ops, ids[1]!, 'fail', { reason: 'Wrong routing' });
    // 1 completed (out), 2.50 returned, 3.33 processing and 4 pending (held).
    expect(await balanceCents(h.user, h.account)).toBe(50_000 - 100 - 333 - 400);
    const list = await api('GET', `/v1/bank-withdraw/account/${h.account.accountNumber}`, { token: h.user.token });
    expect(list.body.data.map((w: { status: string }) => w.status)).toEqual(['Pending', 'Processing', 'Failed', 'Completed']);
    const report = await verifyLedger((await testServer()).db);
    expect(report.problems).toEqual([]);
  });
});

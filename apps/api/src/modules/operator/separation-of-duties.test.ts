import { accountBodyFor, createHolder, createOperator, fundAccount, raiseStepUpThreshold, unique, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { createStore, postStore, storeFields, storeImages } from '../../../test/gateway-fixtures.ts';
import { operatorMessages, storeMessages, withdrawMessages } from '@kestrel/shared';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../ledger/verify.ts';
import { ensureOperator } from './operator.service.ts';

/*
 * Issue 19 item 1: separation of duties. No operator acts on their own records or holds a
 * wallet; money entering (funding) or leaving (a withdrawal's completion) above the
 * thresholds needs a second, different operator; one operator alone stays under a daily cap.
 */

interface Operator {
  token: string;
  userId: string;
  email: string;
}

async function balanceCents(user: TestUser, account: TestAccount): Promise<number> {
  const response = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

const fund = (ops: Operator, accountId: string, amount: number | string, reason = 'Goodwill credit', key?: string) =>
  api('POST', `/v1/operator/accounts/${accountId}/fund`, { token: ops.token, body: { amount, currency: 'USD', reason }, headers: key ? { 'idempotency-key': key } : {} });

const decide = (ops: Operator, approvalId: string, decision: 'approve' | 'refuse', reason = 'Checked the ticket') =>
  api('POST', `/v1/operator/approvals/${approvalId}/${decision}`, { token: ops.token, body: { reason } });

async function auditActions(subjectId: string) {
  const { db } = await testServer();
  return db.selectFrom('auditLog').select(['action', 'actorUserId', 'details']).where('subjectId', '=', subjectId).where('action', '!=', 'account.created').orderBy('id').execute();
}

/** A Processing withdrawal of `amount` from a funded holder's account. */
async function processingWithdrawal(amount: number, mover: Operator) {
  const h = await createHolder(Math.round(amount * 100) + 1_000);
  await raiseStepUpThreshold(h.account.accountId); // four eyes, not step-up
  const created = await withdrawAs(h, amount);
  expect(created.status).toBe(201);
  const id = created.body.data._id as string;
  expect((await api('POST', `/v1/operator/withdrawals/${id}/processing`, { token: mover.token })).status).toBe(200);
  return { ...h, id };
}

describe('an operator and wallets', () => {
  it('cannot open a wallet account (403 with a readable error), and an account holder cannot be made an operator', async () => {
    const ops = await createOperator();
    const opened = await api('POST', '/v1/account/create', { token: ops.token, body: accountBodyFor({ userId: ops.userId }) });
    expect(opened.status).toBe(403);
    expect(opened.body).toMatchObject({ code: 'operator_cannot_hold_account', error: operatorMessages.operatorCannotHoldAccount });
    const { db } = await testServer();
    expect(await db.selectFrom('accountUsers').select('accountId').where('userId', '=', ops.userId).execute()).toEqual([]);

    const h = await createHolder();
    await expect(ensureOperator(db, { email: h.user.email })).rejects.toThrow(/holds a wallet account/);
    expect((await db.selectFrom('users').select('isOperator').where('id', '=', h.user.userId).executeTakeFirstOrThrow()).isOperator).toBe(false);
  });

  it('never acts on an account, store, withdrawal or identity review of their own user (403), even one held from before the rule', async () => {
    // A wallet holder who became an operator before the rule existed (made so directly in the database).
    const other = await createOperator();
    const insider = await createHolder();
    const { db } = await testServer();
    const created = await postStore(insider.user.token, storeFields(insider.account), storeImages());
    expect(created.status).toBe(201);
    const storeId = created.body.data.storeId as string;
    await fundAccount(insider.account.accountId, 500_000);
    const withdrawal = await withdrawAs(insider, 900);
    expect(withdrawal.status).toBe(201);
    await db.updateTable('users').set({ isOperator: true }).where('id', '=', insider.user.userId).execute();
    const before = await balanceCents(insider.user, insider.account);

    const id = insider.account.accountId;
    const attempts: [string, string, unknown?][] = [
      ['POST', `/v1/operator/accounts/${id}/fund`, { amount: 10, currency: 'USD', reason: 'mine' }],
      ['POST', `/v1/operator/accounts/${id}/unlock`, { reason: 'mine' }],
      ['POST', `/v1/operator/accounts/${id}/lock`, { reason: 'mine' }],
      ['POST', `/v1/operator/accounts/${id}/identity/verify`],
      ['POST', `/v1/operator/accounts/${id}/identity/request-documents`, { reason: 'mine' }],
      ['POST', `/v1/operator/stores/${storeId}/approve`, { reason: 'mine' }],
      ['POST', `/v1/operator/stores/${storeId}/reject`, { reason: 'mine' }],
      ['POST', `/v1/operator/withdrawals/${withdrawal.body.data._id}/processing`],
    ];
    for (const [method, url, body] of attempts) {
      const answer = await api(method, url, { token: insider.user.token, body });
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body, `${method} ${url}`).toMatchObject({ code: 'own_record', error: operatorMessages.ownRecord });
    }
    expect(await balanceCents(insider.user, insider.account)).toBe(before);
    const store = await db.selectFrom('stores').select('status').where('storeId', '=', storeId).executeTakeFirstOrThrow();
    expect(store.status).toBe('Pending');
    // Another operator moves it on; the insider still cannot complete it nor approve its completion.
    expect((await api('POST', `/v1/operator/withdrawals/${withdrawal.body.data._id}/processing`, { token: other.token })).status).toBe(200);
    const complete = await api('POST', `/v1/operator/withdrawals/${withdrawal.body.data._id}/complete`, { token: insider.user.token });
    expect(complete.status).toBe(403);
    // Nor approve another operator's funding of their own wallet.
    const asked = await fund(other, id, 150);
    expect(asked.status).toBe(202);
    const approve = await decide({ token: insider.user.token, userId: insider.user.userId, email: '' }, asked.body.data._id, 'approve');
    expect(approve.status).toBe(403);
    expect(approve.body.code).toBe('own_record');
    expect(await balanceCents(insider.user, insider.account)).toBe(before);
  });
});

describe('four eyes on funding', () => {
  it('funds up to US$ 100.00 alone; above it a second, different operator approves, and both names are audited', async () => {
    const maker = await createOperator();
    const checker = await createOperator();
    const h = await createHolder();

    const small = await fund(maker, h.account.accountId, '100.00');
    expect(small.status).toBe(200);
    expect(small.body.message).toBe(operatorMessages.funded);
    expect(await balanceCents(h.user, h.account)).toBe(10_000);

    const large = await fund(maker, h.account.accountId, '100.01', 'Refund of a lost bank transfer');
    expect(large.status).toBe(202);
    expect(large.body.message).toBe(operatorMessages.sentForApproval);
    expect(large.body.data).toMatchObject({ kind: 'funding', status: 'Pending', amount: 100.01, neededBecause: 'above_threshold', reason: 'Refund of a lost bank transfer' });
    expect(large.body.data.requestedBy).toMatchObject({ userId: maker.userId, email: maker.email });
    expect(await balanceCents(h.user, h.account)).toBe(10_000);

    const queue = await api('GET', '/v1/operator/approvals', { token: checker.token });
    expect(queue.body.data.map((entry: { _id: string }) => entry._id)).toContain(large.body.data._id);

    const own = await decide(maker, large.body.data._id, 'approve');
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ code: 'own_request', error: operatorMessages.cannotDecideOwn });
    expect(await balanceCents(h.user, h.account)).toBe(10_000);

    const approved = await decide(checker, large.body.data._id, 'approve', 'Matches the bank statement');
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(operatorMessages.approvalApproved);
    expect(approved.body.data).toMatchObject({ status: 'Approved', decisionReason: 'Matches the bank statement' });
    expect(approved.body.data.decidedBy.userId).toBe(checker.userId);
    expect(approved.body.data.transactionId).toMatch(/\S/);
    expect(await balanceCents(h.user, h.account)).toBe(20_001);

    const again = await decide(checker, large.body.data._id, 'approve');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(operatorMessages.approvalNotPending);
    expect(await balanceCents(h.user, h.account)).toBe(20_001);

    const audit = await auditActions(h.account.accountId);
    expect(audit.map((row) => row.action)).toEqual(['account.funded', 'funding.requested', 'account.funded', 'funding.approved']);
    expect(audit[2]!.details).toMatchObject({ requestedBy: maker.userId, approvedBy: checker.userId, amountCents: 10_001 });
    expect(audit[3]).toMatchObject({ actorUserId: checker.userId, details: { requestedBy: maker.userId, decidedBy: checker.userId } });
    expect((await verifyLedger((await testServer()).db)).problems).toEqual([]);
  });

  it('a refused request moves nothing and is audited', async () => {
    const maker = await createOperator();
    const checker = await createOperator();
    const h = await createHolder();
    const asked = await fund(maker, h.account.accountId, 5_000, 'Promotional credit');
    expect(asked.status).toBe(202);
    const refused = await decide(checker, asked.body.data._id, 'refuse', 'No ticket for this');
    expect(refused.status).toBe(200);
    expect(refused.body.message).toBe(operatorMessages.approvalRefused);
    expect(refused.body.data).toMatchObject({ status: 'Refused', decisionReason: 'No ticket for this', transactionId: null });
    expect((await decide(checker, asked.body.data._id, 'approve')).status).toBe(409);
    expect(await balanceCents(h.user, h.account)).toBe(0);
    expect((await auditActions(h.account.accountId)).map((row) => row.action)).toEqual(['funding.requested', 'funding.refused']);
    const noReason = await api('POST', `/v1/operator/approvals/${asked.body.data._id}/refuse`, { token: checker.token, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
  });

  it('one approval at a time: five operators approving at once make one movement', async () => {
    const maker = await createOperator();
    const checkers = await Promise.all([createOperator(), createOperator(), createOperator(), createOperator(), createOperator()]);
    const h = await createHolder();
    const asked = await fund(maker, h.account.accountId, 750);
    expect(asked.status).toBe(202);
    const answers = await Promise.all(checkers.map((checker) => decide(checker, asked.body.data._id, 'approve')));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await balanceCents(h.user, h.account)).toBe(75_000);
    const { db } = await testServer();
    const fundings = await db.selectFrom('ledgerTransactions').select('id').where('kind', '=', 'operator_funding').where(sql<boolean>`metadata->>'approvalId' = ${asked.body.data._id}`).execute();
    expect(fundings).toHaveLength(1);
  });

  it('holds one operator to US$ 1,000.00 of funding a day alone; past it, a second operator approves', async () => {
    const maker = await createOperator();
    const h = await createHolder();
    const sent = await Promise.all(Array.from({ length: 10 }, () => fund(maker, h.account.accountId, 100)));
    expect(sent.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await balanceCents(h.user, h.account)).toBe(100_000);
    const over = await fund(maker, h.account.accountId, '0.01');
    expect(over.status).toBe(202);
    expect(over.body.data.neededBecause).toBe('daily_cap');
    expect(await balanceCents(h.user, h.account)).toBe(100_000);
    // Another operator's own cap is untouched.
    expect((await fund(await createOperator(), h.account.accountId, 100)).status).toBe(200);
  });

  it('a replayed request (same Idempotency-Key) returns the same pending request, not a second one', async () => {
    const maker = await createOperator();
    const h = await createHolder();
    const key = unique('fund');
    const first = await fund(maker, h.account.accountId, 300, 'Big credit', key);
    const replay = await fund(maker, h.account.accountId, 300, 'Big credit', key);
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.body.data._id).toBe(first.body.data._id);
    const { db } = await testServer();
    expect(await db.selectFrom('operatorApprovals').select('id').where('accountId', '=', h.account.accountId).execute()).toHaveLength(1);
  });
});

describe('four eyes on payouts', () => {
  it('completes a withdrawal under US$ 1,000.00 alone; from US$ 1,000.00 a second operator approves the payout', async () => {
    const maker = await createOperator();
    const checker = await createOperator();
    const small = await processingWithdrawal(999.99, maker);
    const done = await api('POST', `/v1/operator/withdrawals/${small.id}/complete`, { token: maker.token });
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('Completed');

    const large = await processingWithdrawal(1000, maker);
    const asked = await api('POST', `/v1/operator/withdrawals/${large.id}/complete`, { token: maker.token });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(withdrawMessages.completionRequested);
    expect(asked.body.data).toMatchObject({ kind: 'withdrawal_completion', withdrawalId: large.id, amount: 1000, status: 'Pending' });
    const twice = await api('POST', `/v1/operator/withdrawals/${large.id}/complete`, { token: checker.token });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe(withdrawMessages.completionAlreadyRequested);
    const { db } = await testServer();
    expect((await db.selectFrom('bankWithdrawals').select('status').where('id', '=', large.id).executeTakeFirstOrThrow()).status).toBe('Processing');

    expect((await decide(maker, asked.body.data._id, 'approve')).status).toBe(403);
    const [a, b] = await Promise.all([decide(checker, asked.body.data._id, 'approve'), decide(await createOperator(), asked.body.data._id, 'approve')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await db.selectFrom('bankWithdrawals').select('status').where('id', '=', large.id).executeTakeFirstOrThrow()).status).toBe('Completed');
    const audit = await auditActions(large.id);
    expect(audit.map((row) => row.action)).toEqual(['withdrawal.created', 'withdrawal.processing', 'withdrawal.completion_requested', 'withdrawal.completed', 'withdrawal.completion.approved']);
    expect(audit[3]!.details).toMatchObject({ requestedBy: maker.userId, amountCents: 100_000 });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('a withdrawal whose payout waits for a second operator cannot be failed until that request is refused', async () => {
    const maker = await createOperator();
    const checker = await createOperator();
    const large = await processingWithdrawal(1500, maker);
    const asked = await api('POST', `/v1/operator/withdrawals/${large.id}/complete`, { token: maker.token });
    expect(asked.status).toBe(202);

    const early = await api('POST', `/v1/operator/withdrawals/${large.id}/fail`, { token: checker.token, body: { reason: 'Bank rejected the account' } });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe(withdrawMessages.completionAwaitingDecision);
    const { db } = await testServer();
    expect((await db.selectFrom('bankWithdrawals').select('status').where('id', '=', large.id).executeTakeFirstOrThrow()).status).toBe('Processing');

    expect((await decide(checker, asked.body.data._id, 'refuse')).status).toBe(200);
    const failed = await api('POST', `/v1/operator/withdrawals/${large.id}/fail`, { token: maker.token, body: { reason: 'Bank rejected the account' } });
    expect(failed.status).toBe(200);
    expect(failed.body.data.status).toBe('Failed');
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe("today's totals per operator", () => {
  it('shows each operator’s funding, payouts, decisions and pending requests of the day', async () => {
    const maker = await createOperator();
    const checker = await createOperator();
    const h = await createHolder();
    await fund(maker, h.account.accountId, 60);
    const asked = await fund(maker, h.account.accountId, 200);
    await decide(checker, asked.body.data._id, 'approve');
    await fund(maker, h.account.accountId, 300);
    const payout = await processingWithdrawal(40, maker);
    await api('POST', `/v1/operator/withdrawals/${payout.id}/complete`, { token: maker.token });

    const today = await api('GET', '/v1/operator/today', { token: checker.token });
    expect(today.status).toBe(200);
    expect(today.body.data.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.body.data.dailyFundingCap).toBe(1000);
    const row = (id: string) => today.body.data.operators.find((entry: { userId: string }) => entry.userId === id);
    expect(row(maker.userId)).toMatchObject({ email: maker.email, funded: 260, fundedAlone: 60, capLeft: 940, paidOut: 40, approved: 0, refused: 0, pending: 1 });
    expect(row(checker.userId)).toMatchObject({ funded: 0, paidOut: 0, approved: 1, pending: 0 });
  });
});

describe('store approval is one operator, with a reason, never their own store', () => {
  it('needs a reason and records it', async () => {
    const ops = await createOperator();
    const store = await createStore({ approve: false });
    const bare = await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token: ops.token });
    expect(bare.status).toBe(400);
    const approved = await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token: ops.token, body: { reason: 'Documents match the website' } });
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(storeMessages.approved);
    const audit = await auditActions(store.storeId);
    expect(audit.at(-1)).toMatchObject({ action: 'store.approved', actorUserId: ops.userId, details: { reason: 'Documents match the website' } });
  });
});

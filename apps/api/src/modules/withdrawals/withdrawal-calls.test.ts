import { describe, expect, it } from 'vitest';
import { operatorToken } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { createHolder, withdrawalBodyFor, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';
import { countedCall } from '../../../test/statements.ts';

/*
 * Withdrawals on one-call primitives (issue 21): each money step of a request, an operator's
 * move and the owner's cancel is one call of withdrawal_request / withdrawal_move, counted at
 * the driver (every statement the request sends, BEGIN and COMMIT included).
 */

interface Holder {
  user: TestUser;
  account: TestAccount;
}

const usBody = (h: Holder, amount = 25.5) => withdrawalBodyFor(h, amount);

const calls = (texts: string[], fn: string) => texts.filter((text) => text.includes(`FROM ${fn}(`)).length;
/** Transactions opened by the server itself (BEGIN): none is left on these paths. */
const transactions = (texts: string[]) => texts.filter((text) => /^\s*begin\b/i.test(text)).length;
const bareWrites = (texts: string[]) => texts.filter((text) => /^\s*(insert|delete)\b/i.test(text));

describe('withdrawals are one call per money step', () => {
  it('a request: one tpin_check call, then one withdrawal_request call (the hold, the row, activity, audit, key); a replay makes no call', async () => {
    const h = await createHolder(10_000);
    const first = await countedCall('POST', '/v1/bank-withdraw/create', { token: h.user.token, headers: { 'idempotency-key': 'wd-once' }, body: usBody(h) });
    expect(first.response.status).toBe(201);
    expect(first.response.body.data).toMatchObject({ status: 'Pending', amount: 25.5, bankAccountNumber: '****6789' });
    expect(calls(first.texts, 'withdrawal_request')).toBe(1);
    // The TPIN check commits on its own (a wrong TPIN must be counted even though nothing moves): one call too.
    expect(calls(first.texts, 'tpin_check')).toBe(1);
    expect(transactions(first.texts)).toBe(0);
    expect(bareWrites(first.texts)).toEqual([]);

    const replay = await countedCall('POST', '/v1/bank-withdraw/create', { token: h.user.token, headers: { 'idempotency-key': 'wd-once' }, body: usBody(h) });
    expect(replay.response.status).toBe(201);
    expect(replay.response.body.data).toEqual(first.response.body.data);
    expect(calls(replay.texts, 'withdrawal_request')).toBe(0);
    expect(transactions(replay.texts)).toBe(0);

    const tooMuch = await countedCall('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: usBody(h, 100) });
    expect(tooMuch.response.status).toBe(400);
    expect(tooMuch.response.body.error).toBe('Insufficient balance');
    expect(calls(tooMuch.texts, 'withdrawal_request')).toBe(1);
  });

  it("an operator's Processing, Completed and Failed are each one withdrawal_move call after one read", async () => {
    const token = await operatorToken();
    const h = await createHolder(10_000);
    const ids: string[] = [];
    for (const _ of [0, 1]) ids.push((await api('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: usBody(h, 10) })).body.data._id as string);
    for (const [id, last] of [
      [ids[0]!, 'complete'],
      [ids[1]!, 'fail'],
    ] as const) {
      const processing = await countedCall('POST', `/v1/operator/withdrawals/${id}/processing`, { token });
      expect(processing.response.status).toBe(200);
      expect(calls(processing.texts, 'withdrawal_move')).toBe(1);
      expect(transactions(processing.texts)).toBe(0);
      expect(bareWrites(processing.texts)).toEqual([]);
      const done = await countedCall('POST', `/v1/operator/withdrawals/${id}/${last}`, { token, ...(last === 'fail' ? { body: { reason: 'Account closed' } } : {}) });
      expect(done.response.status).toBe(200);
      expect(done.response.body.data.status).toBe(last === 'fail' ? 'Failed' : 'Completed');
      expect(calls(done.texts, 'withdrawal_move')).toBe(1);
      expect(transactions(done.texts)).toBe(0);
      expect(bareWrites(done.texts)).toEqual([]);
    }
    const again = await countedCall('POST', `/v1/operator/withdrawals/${ids[0]}/processing`, { token });
    expect(again.response.status).toBe(409);
    expect(again.response.body.code).toBe('withdrawal_status_conflict');
    expect(calls(again.texts, 'withdrawal_move')).toBe(1);
  });

  it("the owner's cancel: one tpin_check call, then one withdrawal_move call", async () => {
    const h = await createHolder(10_000);
    const id = (await api('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: usBody(h, 10) })).body.data._id as string;
    const cancelled = await countedCall('POST', `/v1/bank-withdraw/cancel/${id}`, { token: h.user.token, headers: { 'idempotency-key': 'cancel-once' }, body: { tpin: h.account.tpin } });
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.response.body.data.status).toBe('Cancelled');
    expect(calls(cancelled.texts, 'withdrawal_move')).toBe(1);
    expect(calls(cancelled.texts, 'tpin_check')).toBe(1);
    expect(transactions(cancelled.texts)).toBe(0);
    expect(bareWrites(cancelled.texts)).toEqual([]);
  });

  it('a wrong TPIN is counted by the same one call: four answers count down, the fifth locks (423) with its activity and audit entry, nothing moves', async () => {
    const { db } = await testServer();
    const h = await createHolder(10_000);
    const wrong = h.account.tpin === '1111' ? 2222 : 1111;
    for (const left of [4, 3, 2, 1]) {
      const refused = await countedCall('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: { ...usBody(h), tpin: wrong } });
      expect(refused.response.status).toBe(400);
      expect(refused.response.body.error).toBe(`Incorrect TPIN. ${left} attempt${left === 1 ? '' : 's'} left before money movement is locked.`);
      expect(calls(refused.texts, 'tpin_check')).toBe(1);
      expect(calls(refused.texts, 'withdrawal_request')).toBe(0);
      expect(transactions(refused.texts)).toBe(0);
    }
    const locked = await api('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: { ...usBody(h), tpin: wrong } });
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe('tpin_locked');
    // Locked: the right TPIN is refused too.
    expect((await api('POST', '/v1/bank-withdraw/create', { token: h.user.token, body: usBody(h) })).status).toBe(423);
    const activities = await db.selectFrom('activities').select('comment').where('accountId', '=', h.account.accountId).where('name', '=', 'TPIN locked').execute();
    expect(activities).toEqual([{ comment: 'Money movement locked for 30 minutes after 5 wrong TPINs' }]);
    const audit = await db.selectFrom('auditLog').select('actorUserId').where('action', '=', 'account.tpin_locked').where('subjectId', '=', h.account.accountId).execute();
    expect(audit).toEqual([{ actorUserId: h.user.userId }]);
    expect(await walletCents(h.account.accountId)).toBe(10_000);
  });
});

import { asCents } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser, fundAccount, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { hashSecret } from '../../security/passwords.ts';
import { hashToken } from '../../security/tokens.ts';
import { TPIN_MAC_PREFIX } from '../accounts/tpin.ts';
import { transferBalance } from '../transfers/transfers.service.ts';
import { verifyLedger } from './verify.ts';

async function holder(fundCents = 0) {
  const user = await createUser();
  const account = await createAccount(user);
  if (fundCents) await fundAccount(account.accountId, asCents(fundCents));
  return { user, account };
}

function transfer(from: { user: TestUser; account: TestAccount }, to: TestAccount, amount: number, options: { tpin?: string; key?: string } = {}) {
  return api('POST', '/v1/account/transfer_balance', {
    token: from.user.token,
    headers: options.key ? { 'idempotency-key': options.key } : {},
    body: { debitAccountKey: from.account.userName, creditAccountKey: to.userName, currency: 'USD', balance: amount, tpin: options.tpin ?? from.account.tpin },
  });
}

async function tpinState(accountId: string) {
  const { db } = await testServer();
  return db.selectFrom('accounts').select(['tpinHash', 'tpinFailedAttempts', 'tpinLockedUntil']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

describe('the ledger transfer primitive (one database call)', () => {
  it('stores a new account\'s TPIN as a keyed hash, never argon2 and never the digits', async () => {
    const alice = await holder();
    const state = await tpinState(alice.account.accountId);
    expect(state.tpinHash.startsWith(TPIN_MAC_PREFIX)).toBe(true);
    expect(state.tpinHash).not.toContain(alice.account.tpin);
    expect(state.tpinHash).toHaveLength(TPIN_MAC_PREFIX.length + 64);
  });

  it('upgrades an argon2 TPIN on its first successful use; a wrong TPIN against argon2 is counted once', async () => {
    const { db } = await testServer();
    const alice = await holder(1_000);
    const bob = await holder();
    await db.updateTable('accounts').set({ tpinHash: await hashSecret(alice.account.tpin) }).where('id', '=', alice.account.accountId).execute();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';

    const wrong = await transfer(alice, bob.account, 1, { tpin: wrongTpin });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    expect((await tpinState(alice.account.accountId)).tpinHash.startsWith('$argon2')).toBe(true);

    const right = await transfer(alice, bob.account, 1);
    expect(right.status).toBe(200);
    expect(right.body.data.balance).toBe(9);
    const after = await tpinState(alice.account.accountId);
    expect(after.tpinHash.startsWith(TPIN_MAC_PREFIX)).toBe(true);
    expect(after.tpinFailedAttempts).toBe(0);
    // And the keyed hash works from then on, with the same answers for a wrong one.
    expect((await transfer(alice, bob.account, 1)).status).toBe(200);
    expect((await transfer(alice, bob.account, 1, { tpin: wrongTpin })).body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
  });

  it('a wrong TPIN is counted even though the transfer fails; insufficient funds with the right TPIN resets the count and moves nothing', async () => {
    const alice = await holder(500);
    const bob = await holder();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';
    expect((await transfer(alice, bob.account, 1, { tpin: wrongTpin })).status).toBe(400);
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(1);
    const tooMuch = await transfer(alice, bob.account, 6, { key: 'too-much' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('Insufficient balance');
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(0);
    // Nothing of the money part stayed, not even the key: the same key with another amount runs afresh.
    const retry = await transfer(alice, bob.account, 5, { key: 'too-much' });
    expect(retry.status).toBe(200);
    expect(retry.body.data.balance).toBe(0);
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('refuses a revoked session in the same call, even when the caller passed the guard', async () => {
    const { app } = await testServer();
    const alice = await holder(1_000);
    const bob = await holder();
    expect((await api('POST', '/v1/auth/logout', { token: alice.user.token })).status).toBe(200);
    const caller = { userId: alice.user.userId, tokenHash: hashToken(alice.user.token) };
    const body = { debitAccountKey: alice.account.userName, creditAccountKey: bob.account.userName, currency: 'USD' as const, balance: asCents(100), tpin: alice.account.tpin };
    await expect(transferBalance(app.ctx, caller, body, undefined, '127.0.0.1')).rejects.toMatchObject({ statusCode: 401, code: 'session_expired' });
  });

  it("one key used at once from two of the caller's accounts moves money once", async () => {
    const user = await createUser();
    const first = await createAccount(user);
    const second = await createAccount(user);
    await fundAccount(first.accountId, asCents(1_000));
    await fundAccount(second.accountId, asCents(1_000));
    const bob = await holder();
    const [a, b] = await Promise.all([
      transfer({ user, account: first }, bob.account, 1, { key: 'shared-key' }),
      transfer({ user, account: second }, bob.account, 1, { key: 'shared-key' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const bobView = await api('GET', `/v1/account/${bob.account.accountNumber}`, { token: bob.user.token });
    expect(bobView.body.data.balance).toEqual([{ currency: 'USD', amount: 1 }]);
  });
});

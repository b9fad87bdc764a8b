import { asCents } from '@kestrel/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createHolder, createUser, fundAccount, transferAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { hashSecret } from '../../security/passwords.ts';
import { hashToken } from '../../security/tokens.ts';
import { checkTpin, TPIN_MAC_PREFIX, tpinMac, tpinMacV1 } from '../accounts/tpin.ts';
import { forgetSenders, transferBalance } from '../transfers/transfers.service.ts';
import { verifyLedger } from './verify.ts';

async function tpinState(accountId: string) {
  const { db } = await testServer();
  return db.selectFrom('accounts').select(['tpinHash', 'tpinFailedAttempts', 'tpinLockedUntil']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

describe('the ledger transfer primitive (one database call)', () => {
  it('stores a new account\'s TPIN as a keyed hash, never argon2 and never the digits', async () => {
    const alice = await createHolder();
    const state = await tpinState(alice.account.accountId);
    expect(state.tpinHash.startsWith(TPIN_MAC_PREFIX)).toBe(true);
    expect(state.tpinHash).not.toContain(alice.account.tpin);
    expect(state.tpinHash).toHaveLength(TPIN_MAC_PREFIX.length + 64);
  });

  it('upgrades an argon2 TPIN on its first successful use; a wrong TPIN against argon2 is counted once', async () => {
    const { db } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    await db.updateTable('accounts').set({ tpinHash: await hashSecret(alice.account.tpin) }).where('id', '=', alice.account.accountId).execute();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';

    const wrong = await transferAs(alice, bob.account, 1, { tpin: wrongTpin });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    expect((await tpinState(alice.account.accountId)).tpinHash.startsWith('$argon2')).toBe(true);

    const right = await transferAs(alice, bob.account, 1);
    expect(right.status).toBe(200);
    expect(right.body.data.balance).toBe(9);
    const after = await tpinState(alice.account.accountId);
    expect(after.tpinHash.startsWith(TPIN_MAC_PREFIX)).toBe(true);
    expect(after.tpinFailedAttempts).toBe(0);
    // And the keyed hash works from then on, with the same answers for a wrong one.
    expect((await transferAs(alice, bob.account, 1)).status).toBe(200);
    expect((await transferAs(alice, bob.account, 1, { tpin: wrongTpin })).body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
  });

  it('a wrong TPIN is counted even though the transfer fails; insufficient funds with the right TPIN resets the count and moves nothing', async () => {
    const alice = await createHolder(500);
    const bob = await createHolder();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';
    expect((await transferAs(alice, bob.account, 1, { tpin: wrongTpin })).status).toBe(400);
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(1);
    const tooMuch = await transferAs(alice, bob.account, 6, { key: 'too-much' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('Insufficient balance');
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(0);
    // Nothing of the money part stayed, not even the key: the same key with another amount runs afresh.
    const retry = await transferAs(alice, bob.account, 5, { key: 'too-much' });
    expect(retry.status).toBe(200);
    expect(retry.body.data.balance).toBe(0);
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('refuses a revoked session in the same call, even when the caller passed the guard', async () => {
    const { app } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
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
    const bob = await createHolder();
    const [a, b] = await Promise.all([
      transferAs({ user, account: first }, bob.account, 1, { key: 'shared-key' }),
      transferAs({ user, account: second }, bob.account, 1, { key: 'shared-key' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const bobView = await api('GET', `/v1/account/${bob.account.accountNumber}`, { token: bob.user.token });
    expect(bobView.body.data.balance).toEqual([{ currency: 'USD', amount: 1 }]);
  });
});

describe('a cold transfer (a sender this process has not seen) costs what a warm one does', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Calls transferBalance as the route does, counting the ledger_transfer calls it makes. */
  async function directTransfer(from: { user: TestUser; account: TestAccount }, to: TestAccount, cents: number, options: { tpin?: string; senderKey?: string } = {}) {
    const { app } = await testServer();
    const executeQuery = app.ctx.db.executeQuery.bind(app.ctx.db);
    let calls = 0;
    const spy = vi.spyOn(app.ctx.db, 'executeQuery').mockImplementation((query, ...rest) => {
      if ('sql' in query && query.sql.includes('ledger_transfer(')) calls += 1;
      return executeQuery(query, ...rest);
    });
    const caller = { userId: from.user.userId, tokenHash: hashToken(from.user.token) };
    const body = {
      debitAccountKey: options.senderKey ?? from.account.userName,
      creditAccountKey: to.userName,
      currency: 'USD' as const,
      balance: asCents(cents),
      tpin: options.tpin ?? from.account.tpin,
    };
    try {
      const { result } = await transferBalance(app.ctx, caller, body, undefined, '127.0.0.1');
      return { result, error: undefined, calls };
    } catch (error) {
      return { result: undefined, error: error as { statusCode: number; message: string }, calls };
    } finally {
      spy.mockRestore();
    }
  }

  function wrongTpinFor(tpin: string) {
    return tpin === '1111' ? '2222' : '1111';
  }

  it('one ledger_transfer call for a first transfer when the sender is named by its user name as stored', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    forgetSenders();
    const cold = await directTransfer(alice, bob.account, 100);
    expect(cold.error).toBeUndefined();
    expect(cold.result?.balance).toBe(9);
    expect(cold.calls).toBe(1);
    const warm = await directTransfer(alice, bob.account, 100);
    expect(warm.calls).toBe(1);
    expect(warm.result?.balance).toBe(8);
  });

  it('a wrong TPIN on a cold process is one call and one strike', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    forgetSenders();
    const wrong = await directTransfer(alice, bob.account, 100, { tpin: wrongTpinFor(alice.account.tpin) });
    expect(wrong.calls).toBe(1);
    expect(wrong.error).toMatchObject({ statusCode: 400 });
    expect(wrong.error?.message).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(1);
  });

  it('a sender key in another case is re-keyed (a second call), never counted as a strike', async () => {
    const { db } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    // One strike short of the lock: a re-key counted as a strike would lock the account.
    await db.updateTable('accounts').set({ tpinFailedAttempts: 4 }).where('id', '=', alice.account.accountId).execute();
    forgetSenders();
    const upper = alice.account.userName.toUpperCase();
    const right = await directTransfer(alice, bob.account, 100, { senderKey: upper });
    expect(right.error).toBeUndefined();
    expect(right.result?.balance).toBe(9);
    expect(right.calls).toBe(2);
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(0);
    // The process now knows how the name is stored: one call from then on, and a wrong TPIN is one strike.
    expect((await directTransfer(alice, bob.account, 100, { senderKey: upper })).calls).toBe(1);
    forgetSenders();
    const wrong = await directTransfer(alice, bob.account, 100, { senderKey: upper, tpin: wrongTpinFor(alice.account.tpin) });
    expect(wrong.error?.message).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    expect((await tpinState(alice.account.accountId)).tpinFailedAttempts).toBe(1);
  });

  it('a TPIN stored as the first keyed version (over the account id): re-keyed without a strike, then upgraded', async () => {
    const { db, config } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const v1 = tpinMacV1(config.secretKey, alice.account.accountId, alice.account.tpin);
    await db.updateTable('accounts').set({ tpinHash: v1, tpinFailedAttempts: 4 }).where('id', '=', alice.account.accountId).execute();

    forgetSenders();
    const right = await directTransfer(alice, bob.account, 100);
    expect(right.error).toBeUndefined();
    expect(right.result?.balance).toBe(9);
    expect(right.calls).toBe(2);
    const after = await tpinState(alice.account.accountId);
    expect(after.tpinFailedAttempts).toBe(0);
    expect(after.tpinHash).toBe(tpinMac(config.secretKey, alice.account.userName, alice.account.tpin));

    // Upgraded: a cold process needs one call now.
    forgetSenders();
    expect((await directTransfer(alice, bob.account, 100)).calls).toBe(1);
  });

  it('a wrong TPIN against the first keyed version on a cold process is exactly one strike, and nothing is upgraded', async () => {
    const { db, config } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const v1 = tpinMacV1(config.secretKey, alice.account.accountId, alice.account.tpin);
    await db.updateTable('accounts').set({ tpinHash: v1 }).where('id', '=', alice.account.accountId).execute();

    forgetSenders();
    const wrong = await directTransfer(alice, bob.account, 100, { tpin: wrongTpinFor(alice.account.tpin) });
    expect(wrong.calls).toBe(2);
    expect(wrong.error?.message).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    const after = await tpinState(alice.account.accountId);
    expect(after.tpinFailedAttempts).toBe(1);
    expect(after.tpinHash).toBe(v1);
  });

  it('an argon2 TPIN is still verified and upgraded to the current keyed hash by a transfer', async () => {
    const { db, config } = await testServer();
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    await db.updateTable('accounts').set({ tpinHash: await hashSecret(alice.account.tpin) }).where('id', '=', alice.account.accountId).execute();
    forgetSenders();
    const right = await directTransfer(alice, bob.account, 100);
    expect(right.error).toBeUndefined();
    expect((await tpinState(alice.account.accountId)).tpinHash).toBe(tpinMac(config.secretKey, alice.account.userName, alice.account.tpin));
    forgetSenders();
    expect((await directTransfer(alice, bob.account, 100)).calls).toBe(1);
  });

  it('checkTpin (the other money paths) verifies argon2, hmac1 and hmac2, and upgrades the older two', async () => {
    const { db, config } = await testServer();
    const alice = await createHolder();
    const current = tpinMac(config.secretKey, alice.account.userName, alice.account.tpin);
    const wrongTpin = wrongTpinFor(alice.account.tpin);
    for (const stored of [await hashSecret(alice.account.tpin), tpinMacV1(config.secretKey, alice.account.accountId, alice.account.tpin), current]) {
      await db.updateTable('accounts').set({ tpinHash: stored, tpinFailedAttempts: 0 }).where('id', '=', alice.account.accountId).execute();
      await expect(checkTpin(db, config.secretKey, alice.account.accountId, wrongTpin, alice.user.userId)).rejects.toMatchObject({ statusCode: 400 });
      const afterWrong = await tpinState(alice.account.accountId);
      expect(afterWrong.tpinFailedAttempts).toBe(1);
      expect(afterWrong.tpinHash).toBe(stored);
      await checkTpin(db, config.secretKey, alice.account.accountId, alice.account.tpin, alice.user.userId);
      const afterRight = await tpinState(alice.account.accountId);
      expect(afterRight.tpinFailedAttempts).toBe(0);
      expect(afterRight.tpinHash).toBe(current);
    }
  });
});

import { messages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createHolder, createUser, fundAccount, raiseStepUpThreshold, transferAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { verifyLedger } from '../ledger/verify.ts';

async function balanceCents(user: TestUser, account: TestAccount): Promise<number> {
  const response = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
  expect(response.status).toBe(200);
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

describe('POST /v1/account/transfer_balance', () => {
  it('moves money, answers "Fund transfer successfull" and the remaining balance', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const response = await transferAs(alice, bob.account, 25.5);
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Fund transfer successfull');
    expect(response.body.data).toMatchObject({ amount: 25.5, currency: 'USD', balance: 74.5, transactionId: expect.stringMatching(/^TNX/) });
    expect(await balanceCents(alice.user, alice.account)).toBe(7_450);
    expect(await balanceCents(bob.user, bob.account)).toBe(2_550);
  });

  it('writes the transfer row, both activities and an audit entry with the ledger transaction', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const response = await transferAs(alice, bob.account, 12);
    expect(response.status).toBe(200);
    const { transactionId } = response.body.data;
    const { db } = await testServer();
    const ledgerTransaction = await db.selectFrom('ledgerTransactions').select(['id', 'amountCents']).where('transactionId', '=', transactionId).executeTakeFirstOrThrow();
    expect(ledgerTransaction.amountCents).toBe(1_200);
    const row = await db.selectFrom('transfers').selectAll().where('ledgerTransactionId', '=', ledgerTransaction.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fromAccountId: alice.account.accountId, toAccountId: bob.account.accountId, amountCents: 1_200, createdBy: alice.user.userId });
    const activities = await db.selectFrom('activities').select(['accountId', 'name']).where('comment', 'like', `%${transactionId}`).orderBy('id').execute();
    expect(activities).toEqual([
      { accountId: alice.account.accountId, name: 'Fund transfer sent' },
      { accountId: bob.account.accountId, name: 'Fund transfer received' },
    ]);
    const audit = await db.selectFrom('auditLog').select(['action', 'actorUserId']).where('subjectId', '=', transactionId).execute();
    expect(audit).toEqual([{ action: 'transfer.created', actorUserId: alice.user.userId }]);
  });

  it('accepts whole numbers (the spec client) and decimal text', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    expect((await transferAs(alice, bob.account, 10)).status).toBe(200);
    expect((await transferAs(alice, bob.account, '0.25')).status).toBe(200);
    expect(await balanceCents(bob.user, bob.account)).toBe(1_025);
  });

  it('refuses bad amounts with a readable error and moves nothing', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    for (const amount of [0, -5, 1.234, '12.345', 'ten', '']) {
      const response = await transferAs(alice, bob.account, amount);
      expect(response.status, String(amount)).toBe(400);
      expect(response.body.error).toBeTruthy();
    }
    expect(await balanceCents(alice.user, alice.account)).toBe(10_000);
  });

  it('refuses an amount above the balance: nothing changes', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const response = await transferAs(alice, bob.account, 10.01);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'Insufficient balance', code: 'insufficient_balance' });
    expect(await balanceCents(alice.user, alice.account)).toBe(1_000);
    expect(await balanceCents(bob.user, bob.account)).toBe(0);
  });

  it('refuses sending to the same account, to an unknown account, or in another currency', async () => {
    const alice = await createHolder(1_000);
    const self = await transferAs(alice, alice.account, 1);
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('You cannot transfer to the same account');
    const unknown = await transferAs(alice, { ...alice.account, userName: 'no-such-user-name-xyz' }, 1);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Recipient account not found');
    const eur = await api('POST', '/v1/account/transfer_balance', {
      token: alice.user.token,
      body: { debitAccountKey: alice.account.userName, creditAccountKey: 'x', currency: 'EUR', balance: 1, tpin: 1234 },
    });
    expect(eur.status).toBe(400);
    expect(eur.body.fields.currency).toBe('Currency is required!');
  });

  it('requires the TPIN: "TPIN is required", wrong TPIN refused, nothing moves', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const missing = await api('POST', '/v1/account/transfer_balance', {
      token: alice.user.token,
      body: { debitAccountKey: alice.account.userName, creditAccountKey: bob.account.userName, currency: 'USD', balance: 1 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.tpin).toBe('TPIN is required');
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';
    const wrong = await transferAs(alice, bob.account, 1, { tpin: wrongTpin });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('tpin_incorrect');
    expect(wrong.body.error).toMatch(/^Incorrect TPIN\. 4 attempts left/);
    expect(await balanceCents(alice.user, alice.account)).toBe(1_000);
  });

  it('locks money movement after 5 wrong TPINs, even with the right one after', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await transferAs(alice, bob.account, 1, { tpin: wrongTpin })).body.code);
    expect(codes).toEqual(['tpin_incorrect', 'tpin_incorrect', 'tpin_incorrect', 'tpin_incorrect', 'tpin_locked']);
    const right = await transferAs(alice, bob.account, 1);
    expect(right.status).toBe(423);
    expect(right.body.error).toBe(messages.tpin.locked);
    expect(await balanceCents(alice.user, alice.account)).toBe(1_000);
    const activities = await api('GET', `/v1/activities?accountId=${alice.account.accountId}`, { token: alice.user.token });
    expect(JSON.stringify(activities.body)).toContain('TPIN locked');
  });

  it('parallel wrong guesses cannot test more than 5 TPINs', async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const guesses = Array.from({ length: 30 }, (_, i) => String(1000 + i).padStart(4, '0')).filter((g) => g !== alice.account.tpin);
    const answers = await Promise.all(guesses.map((tpin) => transferAs(alice, bob.account, 1, { tpin })));
    const evaluated = answers.filter((a) => a.body.code === 'tpin_incorrect').length;
    const locked = answers.filter((a) => a.body.code === 'tpin_locked').length;
    expect(evaluated).toBeLessThanOrEqual(4);
    expect(evaluated + locked).toBe(guesses.length);
    expect((await transferAs(alice, bob.account, 1)).status).toBe(423);
  });

  it("another user's token cannot send from an account", async () => {
    const alice = await createHolder(1_000);
    const mallory = await createHolder();
    const response = await api('POST', '/v1/account/transfer_balance', {
      token: mallory.user.token,
      body: { debitAccountKey: alice.account.userName, creditAccountKey: mallory.account.userName, currency: 'USD', balance: 5, tpin: Number(alice.account.tpin) },
    });
    expect(response.status).toBe(404);
    const spoofed = await api('POST', '/v1/account/transfer_balance', {
      token: mallory.user.token,
      body: { userId: alice.user.userId, debitAccountKey: mallory.account.userName, creditAccountKey: alice.account.userName, currency: 'USD', balance: 5, tpin: 1234 },
    });
    expect(spoofed.status).toBe(403);
    expect(await balanceCents(alice.user, alice.account)).toBe(1_000);
  });
});

describe('idempotency', () => {
  it('the same key sent many times in parallel moves money once; every answer is identical', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const key = `key-${alice.account.accountNumber}`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => transferAs(alice, bob.account, 7, { key })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const bodies = new Set(answers.map((a) => JSON.stringify(a.body)));
    expect(bodies.size).toBe(1);
    expect(await balanceCents(alice.user, alice.account)).toBe(9_300);
    expect(await balanceCents(bob.user, bob.account)).toBe(700);
    const later = await transferAs(alice, bob.account, 7, { key });
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(later.body)).toBe([...bodies][0]);
  });

  it('the same key with another body is refused with 422', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const key = `key2-${alice.account.accountNumber}`;
    expect((await transferAs(alice, bob.account, 7, { key })).status).toBe(200);
    const reuse = await transferAs(alice, bob.account, 8, { key });
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reused');
    expect(await balanceCents(bob.user, bob.account)).toBe(700);
  });
});

describe('double spend', () => {
  it('50 parallel transfers of the whole balance: exactly one succeeds, the balance ends at 0', async () => {
    const alice = await createHolder(5_000);
    const recipients = await Promise.all(Array.from({ length: 5 }, () => createHolder()));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => transferAs(alice, recipients[i % 5]!.account, 50)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.code === 'insufficient_balance')).toBe(true);
    expect(await balanceCents(alice.user, alice.account)).toBe(0);
    let received = 0;
    for (const r of recipients) received += await balanceCents(r.user, r.account);
    expect(received).toBe(5_000);
  });
});

describe('conservation under concurrency', () => {
  it('thousands of random transfers from concurrent clients: the total never changes, no balance goes negative', async () => {
    const holders = await Promise.all(Array.from({ length: 8 }, () => createHolder(100_000)));
    const { db } = await testServer();
    const ids = holders.map((h) => h.account.accountId);
    // Conservation, not step-up (auth/step-up.test.ts): these accounts move far more than
    // US$ 1,000.00 a day on the TPIN alone.
    await Promise.all(ids.map((id) => raiseStepUpThreshold(id)));
    const total = async () => {
      // Folded balance plus pending credits: a contended wallet's credits wait in ledger_pending_credits.
      const rows = await db.selectFrom('walletBalances').select(['balanceCents']).where('accountId', 'in', ids).execute();
      expect(rows.every((r) => Number(r.balanceCents) >= 0)).toBe(true);
      return rows.reduce((sum, r) => sum + Number(r.balanceCents), 0);
    };
    expect(await total()).toBe(800_000);

    const clients = 16;
    const perClient = 125;
    let succeeded = 0;
    let failed = 0;
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < perClient; i++) {
          const from = holders[Math.floor(random() * holders.length)]!;
          let to = holders[Math.floor(random() * holders.length)]!;
          if (to === from) to = holders[(holders.indexOf(from) + 1) % holders.length]!;
          const cents = 1 + Math.floor(random() * 40_000);
          const answer = await transferAs(from, to.account, (cents / 100).toFixed(2));
          if (answer.status === 200) succeeded++;
          else {
            expect(answer.body.code).toBe('insufficient_balance');
            failed++;
          }
        }
      }),
    );
    expect(succeeded + failed).toBe(clients * perClient);
    expect(succeeded).toBeGreaterThan(clients * perClient * 0.5);
    expect(await total()).toBe(800_000);
    const report = await verifyLedger(db);
    expect(report.problems).toEqual([]);
  }, 240_000);
});

describe('recipient search and recents', () => {
  it('finds by account number, e-mail, phone and name part; excludes the current account; echoes e-mail only when typed', async () => {
    const alice = await createHolder();
    const bob = await createHolder();
    const bobAccount = (await api('GET', `/v1/account/${bob.account.accountNumber}`, { token: bob.user.token })).body.data;
    for (const query of [bobAccount.accountNumber, bobAccount.accountEmail, bobAccount.accountPhone, bobAccount.accountHolderName.slice(0, 6)]) {
      const response = await api('GET', `/v1/account/search?query=${encodeURIComponent(query)}`, { token: alice.user.token });
      expect(response.status, query).toBe(200);
      const found = (response.body.data as { accountNumber: string }[]).find((r) => r.accountNumber === bobAccount.accountNumber);
      expect(found, query).toBeTruthy();
    }
    const byNumber = await api('GET', `/v1/account/search?query=${bobAccount.accountNumber}`, { token: alice.user.token });
    expect(byNumber.body.data[0].accountEmail).toBeUndefined();
    expect(byNumber.body.data[0].accountPhone).toBeUndefined();
    const byEmail = await api('GET', `/v1/account/search?query=${encodeURIComponent(bobAccount.accountEmail)}`, { token: alice.user.token });
    expect(byEmail.body.data[0].accountEmail).toBe(bobAccount.accountEmail);

    // Only the current account named by accountNumber is left out (without it, nothing is).
    const own = await api('GET', `/v1/account/search?query=${alice.account.accountNumber}&accountNumber=${alice.account.accountNumber}`, { token: alice.user.token });
    expect(own.body.data).toEqual([]);
    const none = await api('GET', '/v1/account/search?query=zzzz-nobody-has-this', { token: alice.user.token });
    expect(none.body.data).toEqual([]);
    expect((await api('GET', '/v1/account/search?query=x')).status).toBe(401);
  });

  it("leaves out only the current account: a holder's other account is found, and money moves between the two", async () => {
    const user = await createUser();
    const personal = await createAccount(user);
    const business = await createAccount(user, { accountType: 'business', businessName: 'Own Shop', companyName: 'Own Shop LLC' });
    await fundAccount(personal.accountId, 10_000);

    const fromPersonal = await api('GET', `/v1/account/search?query=${business.accountNumber}&accountNumber=${personal.accountNumber}`, { token: user.token });
    expect(fromPersonal.body.data.map((r: { accountNumber: string }) => r.accountNumber)).toEqual([business.accountNumber]);
    const itself = await api('GET', `/v1/account/search?query=${personal.accountNumber}&accountNumber=${personal.accountNumber}`, { token: user.token });
    expect(itself.body.data).toEqual([]);

    const sent = await transferAs({ user, account: personal }, business, 12.5);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ amount: 12.5, balance: 87.5, debitAccountKey: personal.userName, creditAccountKey: business.userName });
    expect(await balanceCents(user, personal)).toBe(8_750);
    expect(await balanceCents(user, business)).toBe(1_250);
  });

  it('ranks exact matches first, so 25 similar names cannot push the exact user name out of the 20 results', async () => {
    const sender = await createHolder();
    const stem = `Zed${Date.now().toString(36)}`;
    // 25 holders named "<stem> A…" sort before the exact match's "<stem> Z…" by holder name.
    const similar = [];
    for (let i = 0; i < 25; i += 1) {
      const user = await createUser();
      similar.push(await createAccount(user, { accountHolderName: `${stem} A${String(i).padStart(2, '0')}`, userName: `${stem.toLowerCase()}a${i}` }));
    }
    const targetUser = await createUser();
    const target = await createAccount(targetUser, { accountHolderName: `${stem} Zulu`, userName: stem.toLowerCase() });

    const byUserName = await api('GET', `/v1/account/search?query=${encodeURIComponent(stem.toUpperCase())}`, { token: sender.user.token });
    expect(byUserName.status).toBe(200);
    expect(byUserName.body.data).toHaveLength(20);
    expect(byUserName.body.data[0].userName).toBe(target.userName);

    const lookup = await api('GET', `/v1/recipients/${encodeURIComponent(stem.toUpperCase())}`, { token: sender.user.token });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toEqual({
      _id: target.accountId,
      accountNumber: target.accountNumber,
      accountType: 'personal',
      accountHolderName: `${stem} Zulu`,
      businessName: null,
      userName: target.userName,
    });
    const unknown = await api('GET', `/v1/recipients/${stem}nobody`, { token: sender.user.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'Recipient account not found', code: 'recipient_not_found' });
    expect((await api('GET', `/v1/recipients/${target.userName}`)).status).toBe(401);
    expect(similar).toHaveLength(25);
  }, 120_000);

  it('lists the latest distinct recipients, owner only', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const carol = await createHolder();
    const empty = await api('GET', `/v1/account/transfer_balance/recent/${alice.account.accountNumber}`, { token: alice.user.token });
    expect(empty.body.data).toEqual([]);
    await transferAs(alice, bob.account, 1);
    await transferAs(alice, carol.account, 1);
    await transferAs(alice, bob.account, 1);
    const recent = await api('GET', `/v1/account/transfer_balance/recent/${alice.account.accountNumber}`, { token: alice.user.token });
    expect(recent.body.data.map((r: { userName: string }) => r.userName)).toEqual([bob.account.userName, carol.account.userName]);
    const other = await api('GET', `/v1/account/transfer_balance/recent/${alice.account.accountNumber}`, { token: bob.user.token });
    expect(other.status).toBe(404);
  });
});

describe('GET /v1/transaction/account/:accountNumber', () => {
  it('answers the grouped shape with both parties and their debit/credit', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const sent = await transferAs(alice, bob.account, 12.34);
    const response = await api('GET', `/v1/transaction/account/${bob.account.accountNumber}`, { token: bob.user.token });
    expect(response.status).toBe(200);
    const groups = response.body.data;
    expect(groups).toHaveLength(1);
    expect(groups[0]._id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(groups[0].transactions).toEqual([
      {
        _id: expect.any(String),
        transactionId: sent.body.data.transactionId,
        transactionFor: 'Fund Transfer',
        amount: 12.34,
        currency: 'USD',
        fee: { amount: 0, currency: 'USD' },
        transactionAt: expect.any(String),
        accounts: [
          { accountNumber: alice.account.accountNumber, transactionType: 'debit' },
          { accountNumber: bob.account.accountNumber, transactionType: 'credit' },
        ],
      },
    ]);
    const aliceList = await api('GET', `/v1/transaction/account/${alice.account.accountNumber}`, { token: alice.user.token });
    expect(aliceList.body.data.flatMap((g: { transactions: unknown[] }) => g.transactions)).toHaveLength(2); // funding + transfer
  });

  it("another user's token cannot list an account's transactions", async () => {
    const alice = await createHolder(1_000);
    const bob = await createHolder();
    const response = await api('GET', `/v1/transaction/account/${alice.account.accountNumber}`, { token: bob.user.token });
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toContain(alice.account.accountNumber);
  });
});

import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { asCents } from '@kestrel/shared';
import { describe, expect, inject, it } from 'vitest';
import { api, testDatabase } from '../../../test/harness.ts';
import { createHolder, transferAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { fundWallet, insertBareAccount, moveBetweenWallets } from '../../../test/ledger-fixtures.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../../db/database.ts';
import { postTransaction, SYSTEM_ACCOUNTS, walletBalances } from './ledger.service.ts';
import { verifyLedger } from './verify.ts';

/**
 * No hot row on the way in (see db/functions/ledger_credit.sql): credits to a wallet that many
 * pay at once never queue on its balance row, and still no debit takes it below zero, no
 * movement counts twice, and every balance is the sum of its postings.
 */

interface Holder {
  user: TestUser;
  account: TestAccount;
}

const transfer = (from: Holder, to: TestAccount, cents: number, key: string) => transferAs(from, to, (cents / 100).toFixed(2), { key });

async function usdBalance(db: Db, accountId: string): Promise<number> {
  return (await walletBalances(db, accountId)).find((b) => b.currency === 'USD')?.amountCents ?? 0;
}

async function postingsSum(db: Db, accountId: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    SELECT COALESCE(SUM(p.amount_cents), 0)::bigint AS total FROM ledger_postings p
    JOIN ledger_accounts la ON la.id = p.ledger_account_id WHERE la.account_id = ${accountId} AND la.currency = 'USD'`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** Runs the tasks with at most `limit` at once (the test pool has 30 connections), answering every outcome in order. */
async function settledInParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await tasks[index]!() };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('a hot wallet: many pay it at once while it pays out', () => {
  it('parallel transfers into one recipient and out of it over HTTP (with replayed keys): each applied once, never below zero, total unchanged, every balance its postings', async () => {
    const { db } = await testDatabase();
    const senders = await Promise.all(Array.from({ length: 12 }, () => createHolder(10_000)));
    const hot = await createHolder(500);
    const payees = await Promise.all(Array.from({ length: 5 }, () => createHolder()));
    const everyone = [...senders, hot, ...payees];
    const totalBefore = (await Promise.all(everyone.map((h) => usdBalance(db, h.account.accountId)))).reduce((a, b) => a + b, 0);

    // 120 payments into the hot wallet (10 per sender, 1–100 cents), a third of them sent twice
    // at once with the same key; 40 debits of 1.00 out of it running alongside, more than its
    // opening 5.00 covers, so only the credits that have committed can pay for them.
    const incoming = senders.flatMap((sender, s) =>
      Array.from({ length: 10 }, (_, i) => ({ sender, cents: ((s * 10 + i) % 100) + 1, key: `hot-in-${randomBytes(8).toString('hex')}` })),
    );
    const outgoing = Array.from({ length: 40 }, (_, i) => ({ payee: payees[i % payees.length]!, key: `hot-out-${randomBytes(8).toString('hex')}` }));
    const calls = [
      ...incoming.map((t) => transfer(t.sender, hot.account, t.cents, t.key)),
      ...incoming.filter((_, i) => i % 3 === 0).map((t) => transfer(t.sender, hot.account, t.cents, t.key)),
      ...outgoing.map((t) => transfer(hot, t.payee.account, 100, t.key)),
    ];
    const answers = await Promise.all(calls);
    const inAnswers = answers.slice(0, incoming.length);
    const replayAnswers = answers.slice(incoming.length, incoming.length + Math.ceil(incoming.length / 3));
    const outAnswers = answers.slice(incoming.length + replayAnswers.length);

    expect(inAnswers.every((r) => r.status === 200)).toBe(true);
    expect(replayAnswers.every((r) => r.status === 200)).toBe(true);
    // A replay answers the first answer: the same ledger transaction, not a second one.
    incoming
      .filter((_, i) => i % 3 === 0)
      .forEach((_, k) => expect(replayAnswers[k]!.body.data.transactionId).toBe(inAnswers[k * 3]!.body.data.transactionId));
    const paidOut = outAnswers.filter((r) => r.status === 200).length;
    for (const r of outAnswers.filter((answer) => answer.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Insufficient balance');
    }
    // Every debit answered a balance at or above zero.
    for (const r of outAnswers.filter((answer) => answer.status === 200)) expect(r.body.data.balance).toBeGreaterThanOrEqual(0);

    const received = incoming.reduce((sum, t) => sum + t.cents, 0);
    const hotRows = await sql<{ n: number }>`
      SELECT COUNT(*)::bigint AS n FROM transfers WHERE to_account_id = ${hot.account.accountId}`.execute(db);
    expect(Number(hotRows.rows[0]?.n)).toBe(incoming.length);
    expect(await usdBalance(db, hot.account.accountId)).toBe(500 + received - paidOut * 100);
    expect(await usdBalance(db, hot.account.accountId)).toBeGreaterThanOrEqual(0);
    for (const h of everyone) expect(await usdBalance(db, h.account.accountId)).toBe(await postingsSum(db, h.account.accountId));
    const totalAfter = (await Promise.all(everyone.map((h) => usdBalance(db, h.account.accountId)))).reduce((a, b) => a + b, 0);
    expect(totalAfter).toBe(totalBefore);

    // What the owner sees over HTTP is the same figure.
    const shown = await api('GET', `/v1/account/${hot.account.accountNumber}`, { token: hot.user.token });
    const usd = (shown.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
    expect(Math.round((usd?.amount ?? 0) * 100)).toBe(500 + received - paidOut * 100);

    const report = await verifyLedger(db);
    expect(report.problems).toEqual([]);
  }, 180_000);

  it('postTransaction: 150 parallel credits into one wallet and 50 parallel debits from it keep the floor and the sums', async () => {
    const { db } = await testDatabase();
    const hot = await insertBareAccount(db);
    const sources = await Promise.all(Array.from({ length: 10 }, () => insertBareAccount(db)));
    for (const source of sources) await fundWallet(db, source, 5_000);
    const sinks = await Promise.all(Array.from({ length: 3 }, () => insertBareAccount(db)));
    // Credits and debits interleaved, 24 transactions at once.
    const tasks = Array.from({ length: 200 }, (_, i) =>
      i % 4 === 3 ? () => moveBetweenWallets(db, hot, sinks[i % sinks.length]!, 70) : () => moveBetweenWallets(db, sources[i % sources.length]!, hot, 20),
    );
    const results = await settledInParallel(tasks, 24);
    const creditResults = results.filter((_, i) => i % 4 !== 3);
    const debitResults = results.filter((_, i) => i % 4 === 3);
    expect(creditResults.every((r) => r.status === 'fulfilled')).toBe(true);
    const debited = debitResults.filter((r) => r.status === 'fulfilled').length;
    for (const r of debitResults) {
      if (r.status === 'fulfilled') expect(r.value.balancesAfter.get(hot)).toBeGreaterThanOrEqual(0);
      else expect((r.reason as Error).message).toBe('Insufficient balance');
    }
    expect(await usdBalance(db, hot)).toBe(150 * 20 - debited * 70);
    expect(await usdBalance(db, hot)).toBe(await postingsSum(db, hot));
    const sinkTotal = (await Promise.all(sinks.map((s) => usdBalance(db, s)))).reduce((a, b) => a + b, 0);
    expect(sinkTotal).toBe(debited * 70);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  // PGlite is one connection: a second transaction never runs while another holds a row.
  const onPostgres = inject('testDatabaseUrl') !== undefined;
  it.skipIf(!onPostgres)('a credit does not wait for a wallet row held by a debit in flight; it is pending, shown, and folded by the next debit (PostgreSQL)', async () => {
    const { db } = await testDatabase();
    const hot = await insertBareAccount(db);
    const other = await insertBareAccount(db);
    await fundWallet(db, hot, 1_000);
    const ledgerAccount = await db.selectFrom('ledgerAccounts').select('id').where('accountId', '=', hot).executeTakeFirstOrThrow();
    const pendingRows = async () =>
      Number((await sql<{ n: number }>`SELECT COUNT(*)::bigint AS n FROM ledger_pending_credits WHERE ledger_account_id = ${ledgerAccount.id}`.execute(db)).rows[0]?.n);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let debitHolds!: () => void;
    const debitHoldsRow = new Promise<void>((resolve) => (debitHolds = resolve));
    // A debit of the hot wallet that keeps its row lock until released.
    const debit = inTransaction(db, async (trx) => {
      const posted = await postTransaction(trx, {
        kind: 'transfer',
        transactionFor: 'Test transfer',
        currency: 'USD',
        amountCents: asCents(100),
        postings: [
          { party: { walletAccountId: hot }, amountCents: asCents(-100) },
          { party: { walletAccountId: other }, amountCents: asCents(100) },
        ],
      });
      debitHolds();
      await held;
      return posted;
    });
    await debitHoldsRow;
    try {
      // Two credits while the row is held: both commit without waiting for the debit.
      const credit = Promise.all([
        fundWallet(db, hot, 250),
        inTransaction(db, (trx) =>
          postTransaction(trx, {
            kind: 'payment',
            transactionFor: 'Test payment',
            currency: 'USD',
            amountCents: asCents(40),
            postings: [
              { party: { system: SYSTEM_ACCOUNTS.cardClearing }, amountCents: asCents(-40) },
              { party: { walletAccountId: hot }, amountCents: asCents(40) },
            ],
          }),
        ),
      ]);
      const first = await Promise.race([credit.then(() => 'credits committed'), new Promise((resolve) => setTimeout(() => resolve('credits waited'), 3_000))]);
      expect(first).toBe('credits committed');
      expect(await pendingRows()).toBe(2);
      // Shown at once: the debit has not committed, the credits have.
      expect(await usdBalance(db, hot)).toBe(1_290);
    } finally {
      release();
    }
    await debit;
    expect(await usdBalance(db, hot)).toBe(1_190);
    // The next debit folds the pending credits into the row and may spend them.
    await moveBetweenWallets(db, hot, other, 1_150);
    expect(await pendingRows()).toBe(0);
    expect(await usdBalance(db, hot)).toBe(40);
    const row = await db.selectFrom('ledgerAccounts').select('balanceCents').where('id', '=', ledgerAccount.id).executeTakeFirstOrThrow();
    expect(row.balanceCents).toBe(40);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

import fc from 'fast-check';
import { sql } from 'kysely';
import { asCents } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/harness.ts';
import { fundWallet, insertBareAccount, moveBetweenWallets } from '../../../test/ledger-fixtures.ts';
import { inTransaction } from '../../db/transaction.ts';
import { InsufficientFundsError, postTransaction, SYSTEM_ACCOUNTS, walletBalances } from './ledger.service.ts';
import { verifyLedger } from './verify.ts';

async function balanceOf(accountId: string): Promise<number> {
  const { db } = await testDatabase();
  return (await walletBalances(db, accountId)).find((b) => b.currency === 'USD')?.amountCents ?? 0;
}

async function fund(accountId: string, cents: number) {
  return fundWallet((await testDatabase()).db, accountId, cents);
}

async function move(from: string, to: string, cents: number, feeCents = 0) {
  return moveBetweenWallets((await testDatabase()).db, from, to, cents, feeCents);
}

describe('ledger', () => {
  it('moves money between wallets and records balanced postings', async () => {
    const a = await insertBareAccount((await testDatabase()).db);
    const b = await insertBareAccount((await testDatabase()).db);
    await fund(a, 10_000);
    const posted = await move(a, b, 2_550);
    expect(posted.transactionId).toMatch(/^TNX[A-Z0-9]{16}$/);
    expect(await balanceOf(a)).toBe(7_450);
    expect(await balanceOf(b)).toBe(2_550);
  });

  it('refuses a debit that does not fit and changes nothing', async () => {
    const { db } = await testDatabase();
    const a = await insertBareAccount(db);
    const b = await insertBareAccount(db);
    await fund(a, 1_000);
    await expect(move(a, b, 1_001)).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await balanceOf(a)).toBe(1_000);
    expect(await balanceOf(b)).toBe(0);
  });

  it("writes the caller's rows before the balances, answers the balances after, and a refused debit rolls everything back", async () => {
    const { db } = await testDatabase();
    const a = await insertBareAccount(db);
    const b = await insertBareAccount(db);
    await fund(a, 1_000);
    const movement = (cents: number, note: string, balanceBefore: number) =>
      inTransaction(db, (trx) =>
        postTransaction(
          trx,
          {
            kind: 'transfer',
            transactionFor: 'Test transfer',
            currency: 'USD',
            amountCents: asCents(cents),
            postings: [
              { party: { walletAccountId: a }, amountCents: asCents(-cents) },
              { party: { walletAccountId: b }, amountCents: asCents(cents) },
            ],
          },
          {
            beforeBalances: async (posted) => {
              // The balances are still untouched when the caller's rows are written.
              expect(await walletBalances(trx, a)).toEqual([{ currency: 'USD', amountCents: balanceBefore }]);
              await trx.insertInto('activities').values({ accountId: a, name: note, comment: posted.transactionId }).execute();
            },
          },
        ),
      );
    const posted = await movement(400, 'kept', 1_000);
    expect(posted.balancesAfter).toEqual(new Map([[a, 600], [b, 400]]));
    await expect(movement(601, 'rolled back', 600)).rejects.toBeInstanceOf(InsufficientFundsError);
    const notes = await db.selectFrom('activities').select(['name', 'comment']).where('accountId', '=', a).execute();
    expect(notes).toEqual([{ name: 'kept', comment: posted.transactionId }]);
    expect(await balanceOf(a)).toBe(600);
    expect(await balanceOf(b)).toBe(400);
  });

  it('refuses unbalanced postings in code', async () => {
    const { db } = await testDatabase();
    const a = await insertBareAccount(db);
    await expect(
      inTransaction(db, (trx) =>
        postTransaction(trx, {
          kind: 'broken',
          transactionFor: 'Broken',
          currency: 'USD',
          amountCents: asCents(100),
          postings: [
            { party: { system: SYSTEM_ACCOUNTS.funding }, amountCents: asCents(-100) },
            { party: { walletAccountId: a }, amountCents: asCents(99) },
          ],
        }),
      ),
    ).rejects.toThrow(/do not balance/);
  });

  it('the database itself refuses unbalanced postings and negative wallet balances', async () => {
    const { db } = await testDatabase();
    const a = await insertBareAccount(db);
    const ledgerAccount = await db.selectFrom('ledgerAccounts').select('id').where('accountId', '=', a).executeTakeFirstOrThrow();
    await expect(
      db.transaction().execute(async (trx) => {
        const t = await trx
          .insertInto('ledgerTransactions')
          .values({ transactionId: `TNXBAD${Date.now()}`, kind: 'x', transactionFor: 'x', currency: 'USD', amountCents: 5, metadata: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('ledgerPostings').values({ ledgerTransactionId: t.id, ledgerAccountId: ledgerAccount.id, amountCents: 5 }).execute();
      }),
    ).rejects.toThrow(/does not balance/);
    await expect(sql`UPDATE ledger_accounts SET balance_cents = -1 WHERE id = ${ledgerAccount.id}`.execute(db)).rejects.toThrow(/check/i);
  });

  it('never lets parallel debits overdraw an account', async () => {
    const { db } = await testDatabase();
    const source = await insertBareAccount(db);
    const sinks = await Promise.all(Array.from({ length: 5 }, () => insertBareAccount(db)));
    await fund(source, 1_000);
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => move(source, sinks[i % sinks.length]!, 100)));
    const succeeded = results.filter((r) => r.status === 'fulfilled').length;
    expect(succeeded).toBe(10);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFundsError)).toBe(true);
    expect(await balanceOf(source)).toBe(0);
  });

  it('keeps its invariants over random sequences of operations (property test)', async () => {
    const { db } = await testDatabase();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => insertBareAccount(db)));
    const model = new Map(accounts.map((id) => [id, 0]));
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('fund' as const), to: fc.nat(3), cents: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({
        kind: fc.constant('move' as const),
        from: fc.nat(3),
        to: fc.nat(3),
        cents: fc.integer({ min: 1, max: 40_000 }),
        fee: fc.integer({ min: 0, max: 500 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        for (const op of operations) {
          if (op.kind === 'fund') {
            const to = accounts[op.to]!;
            await fund(to, op.cents);
            model.set(to, model.get(to)! + op.cents);
            continue;
          }
          const from = accounts[op.from]!;
          const to = accounts[op.to]!;
          if (from === to) continue;
          const debit = op.cents + op.fee;
          if (model.get(from)! < debit) {
            await expect(move(from, to, op.cents, op.fee)).rejects.toBeInstanceOf(InsufficientFundsError);
          } else {
            await move(from, to, op.cents, op.fee);
            model.set(from, model.get(from)! - debit);
            model.set(to, model.get(to)! + op.cents);
          }
        }
        for (const id of accounts) expect(await balanceOf(id)).toBe(model.get(id));
      }),
      { numRuns: 25 },
    );
    const report = await verifyLedger(db);
    expect(report.problems).toEqual([]);
    expect(report.totalsByCurrency.USD).toBe(0);
  });
});

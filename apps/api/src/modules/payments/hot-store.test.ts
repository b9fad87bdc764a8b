import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { api, testServer, type ApiResponse } from '../../../test/harness.ts';
import { createHolder, fundAccount, transferAs, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createStore, webPayBodyFor } from '../../../test/gateway-fixtures.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';

/*
 * The concurrency proof of issue 21: a store that everyone pays at once while its owner moves
 * money out. 1,000 payments into one store over HTTP (card and wallet mixed, a tenth of them
 * raced by a second attempt of the other kind) run at the same time as 200 debits of the
 * store's wallet (transfers and withdrawal requests). The store's balance as everyone reads it
 * (the wallet_balances view: folded + pending credits) never goes below zero, ends as the sum of
 * its postings and as the sum of what the answers said happened; no payment is applied twice;
 * ledger:verify finds nothing.
 */

interface Holder {
  user: TestUser;
  account: TestAccount;
}

const PAYMENTS = 1_000;
const DEBITS = 200;
/** Requests in flight at once: the test pool has 30 PostgreSQL connections, whose wait is bounded (5 s). */
const IN_FLIGHT = 48;

/** Runs the tasks with at most `limit` at once, answering every outcome in order. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const key = (what: string) => `${what}-${randomBytes(8).toString('hex')}`;

describe('a hot store: 1,000 payments in while 200 debits go out', () => {
  it('never below zero, its postings\' sum, no payment applied twice, ledger:verify OK', async () => {
    const { db } = await testServer();
    const store = await createStore();
    const owner: Holder = { user: store.owner, account: store.account };
    const opening = 5_000;
    await fundAccount(store.account.accountId, opening);
    const payers = await Promise.all(Array.from({ length: 8 }, () => createHolder(10_000_000)));
    const recipients = await Promise.all(Array.from({ length: 4 }, () => createHolder()));

    // The payments to pay, 1.00–4.99 each, created through the API.
    const amounts = Array.from({ length: PAYMENTS }, (_, i) => 100 + ((i * 37) % 400));
    const created = await inParallel(
      amounts.map((cents) => () => api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor({ amount: cents / 100 }) })),
      IN_FLIGHT,
    );
    expect(created.every((answer) => answer.status === 200)).toBe(true);
    const paymentIds = created.map((answer) => answer.body.data.paymentId as string);

    const byCard = (i: number) => () => api('POST', `/v1/payment/complete/${paymentIds[i]}`, { headers: { 'idempotency-key': key('card') }, body: card() });
    const byWallet = (i: number) => () => {
      const payer = payers[i % payers.length]!;
      return api('POST', `/v1/payment/complete/kestrel/${paymentIds[i]}`, {
        token: payer.user.token,
        headers: { 'idempotency-key': key('wallet') },
        body: { accountNumber: payer.account.accountNumber, tpin: payer.account.tpin },
      });
    };
    const raced = (i: number) => i % 10 === 0;
    type Op = { kind: 'pay'; payment: number; call: () => Promise<ApiResponse> } | { kind: 'debit'; via: 'transfer' | 'withdrawal'; cents: number; call: () => Promise<ApiResponse> };
    const pays: Op[] = amounts.flatMap((_, i) => {
      const first: Op = { kind: 'pay', payment: i, call: i % 2 === 0 ? byCard(i) : byWallet(i) };
      return raced(i) ? [first, { kind: 'pay', payment: i, call: i % 2 === 0 ? byWallet(i) : byCard(i) }] : [first];
    });
    const debits: Op[] = Array.from({ length: DEBITS }, (_, i) =>
      i % 4 === 3
        ? { kind: 'debit', via: 'withdrawal', cents: 300, call: () => withdrawAs(owner, 3, { key: key('wd') }) }
        : { kind: 'debit', via: 'transfer', cents: 200, call: () => transferAs(owner, recipients[i % recipients.length]!.account, '2.00', { key: key('out') }) },
    );
    // Debits spread evenly through the payments, so money goes out while it comes in.
    const ops: Op[] = [];
    const every = Math.floor(pays.length / DEBITS);
    let nextDebit = 0;
    pays.forEach((op, i) => {
      ops.push(op);
      if ((i + 1) % every === 0 && nextDebit < debits.length) ops.push(debits[nextDebit++]!);
    });
    ops.push(...debits.slice(nextDebit));
    expect(ops.filter((op) => op.kind === 'debit')).toHaveLength(DEBITS);

    // While it runs, the balance as readers see it, sampled.
    let running = true;
    const seen: number[] = [];
    const sampler = (async () => {
      while (running) {
        seen.push(await walletCents(store.account.accountId));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = await inParallel(
      ops.map((op) => op.call),
      IN_FLIGHT,
    );
    running = false;
    await sampler;

    // Every payment paid exactly once: one 200 for each; a raced second attempt is refused 409.
    const paidBy = new Map<number, number>();
    let debited = 0;
    ops.forEach((op, index) => {
      const answer = answers[index]!;
      if (op.kind === 'pay') {
        if (answer.status === 200) paidBy.set(op.payment, (paidBy.get(op.payment) ?? 0) + 1);
        else {
          expect(raced(op.payment), `payment ${op.payment}: ${answer.status} ${JSON.stringify(answer.body)}`).toBe(true);
          expect(answer.status).toBe(409);
        }
        return;
      }
      if (answer.status === 200 || answer.status === 201) {
        debited += op.cents;
        if (op.via === 'transfer') expect(answer.body.data.balance).toBeGreaterThanOrEqual(0);
      } else {
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe('Insufficient balance');
      }
    });
    expect(paidBy.size).toBe(PAYMENTS);
    expect([...paidBy.values()].every((n) => n === 1)).toBe(true);
    expect(debited).toBeGreaterThan(0);

    // The database agrees: each payment paid by one ledger transaction, one credit each.
    const paid = await db
      .selectFrom('payments')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.count<string>('paidLedgerTransactionId').distinct().as('ledgerTransactions'), eb.fn.sum<string>('amountCents').as('amount'), eb.fn.sum<string>('feeCents').as('fees')])
      .where('id', 'in', paymentIds)
      .where('paymentStatus', '=', 'success')
      .executeTakeFirstOrThrow();
    expect(Number(paid.n)).toBe(PAYMENTS);
    expect(Number(paid.ledgerTransactions)).toBe(PAYMENTS);
    expect(Number(paid.amount)).toBe(amounts.reduce((sum, cents) => sum + cents, 0));
    const netIn = Number(paid.amount) - Number(paid.fees);
    const { rows } = await sql<{ credits: string; creditCents: string; total: string }>`
      SELECT count(*) FILTER (WHERE p.amount_cents > 0) AS credits,
             COALESCE(SUM(p.amount_cents) FILTER (WHERE p.amount_cents > 0), 0) AS credit_cents,
             COALESCE(SUM(p.amount_cents), 0) AS total
        FROM ledger_postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
       WHERE la.account_id = ${store.account.accountId} AND la.currency = 'USD'`.execute(db);
    const postings = rows[0]!;
    // The opening funding and one credit per payment, nothing more.
    expect(Number(postings.credits)).toBe(PAYMENTS + 1);
    expect(Number(postings.creditCents)).toBe(opening + netIn);

    const balance = await walletCents(store.account.accountId);
    expect(balance).toBe(opening + netIn - debited);
    expect(balance).toBe(Number(postings.total));
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen, balance)).toBeGreaterThanOrEqual(0);

    expect((await verifyLedger(db)).problems).toEqual([]);
  }, 600_000);
});

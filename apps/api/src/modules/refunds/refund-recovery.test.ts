import { refundMessages, type RefundView } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { extraTestApp, api, testDatabase, testServer } from '../../../test/harness.ts';
import { unique } from '../../../test/factories.ts';
import { createStore, paidByCard } from '../../../test/gateway-fixtures.ts';
import { systemCents, walletCents } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { createSandboxProcessor, type CardProcessor, type RefundOutcome } from '../payments/card-processor.ts';
import { recoverRefunds } from '../payments/collect/refund.ts';

/*
 * Card refunds that cannot half-happen (issue 23): the processor refusing puts the money back;
 * a process that dies between the ledger step and the processor's answer leaves the refund
 * 'processing', and the recovery sweep that a starting server runs (another app on the same
 * database here) finishes or undoes it.
 */

async function books(owner: string) {
  return { owner: await walletCents(owner), feeRevenue: await systemCents('fee_revenue', owner), inFlight: await systemCents('refunds_in_flight', owner), cardClearing: await systemCents('card_clearing', owner) };
}
const change = (before: Awaited<ReturnType<typeof books>>, after: Awaited<ReturnType<typeof books>>) => ({
  owner: after.owner - before.owner,
  feeRevenue: after.feeRevenue - before.feeRevenue,
  inFlight: after.inFlight - before.inFlight,
  cardClearing: after.cardClearing - before.cardClearing,
});

const apps: FastifyInstance[] = [];
/** Another API process on the same database, with its own card processor. */
async function anotherApp(cardProcessor?: CardProcessor): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const { app, baseUrl } = await extraTestApp({}, cardProcessor ? { cardProcessor } : {});
  apps.push(app);
  return { app, baseUrl };
}
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** A processor whose refunds never answer until `answer` is called: the process "dies" while waiting. */
async function stallingProcessor() {
  const sandbox = createSandboxProcessor((await testDatabase()).db);
  let release: (outcome: RefundOutcome) => void = () => undefined;
  const answered = new Promise<RefundOutcome>((resolve) => {
    release = resolve;
  });
  let asked = 0;
  const processor: CardProcessor = { ...sandbox, name: 'stalling', refund: () => ((asked += 1), answered) };
  return { processor, answer: (outcome: RefundOutcome) => release(outcome), asked: () => asked };
}

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

const refundRow = async (paymentId: string) => {
  const { db } = await testServer();
  return db.selectFrom('refunds').selectAll().where('paymentId', '=', paymentId).executeTakeFirst();
};

describe('a card refund the processor refuses', () => {
  it('answers 402, puts the money back to the owner and fee revenue, keeps the refund as failed, and a replay answers the same', async () => {
    const store = await createStore();
    // The sandbox's published card whose refunds are refused.
    const paymentId = await paidByCard(store, 25.5, '4000000000005126');
    const before = await books(store.account.accountId);
    const key = unique('rf');
    const refused = await api('POST', `/v1/payment/refund/${paymentId}`, { headers: { ...store.headers, 'idempotency-key': key }, body: { amount: 10 } });
    expect([refused.status, refused.body.code, refused.body.error]).toEqual([402, 'refund_declined', refundMessages.declined]);
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: 0, feeRevenue: 0, inFlight: 0, cardClearing: 0 });

    const listed = await api('GET', `/v1/payment/refunds/${paymentId}`, { headers: store.headers });
    expect(listed.body.data).toMatchObject([{ amount: 10, status: 'failed', failureReason: expect.stringContaining('refused') }]);
    const view = await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers });
    expect(view.body.data).toMatchObject({ amountRefunded: 0, amountRefundable: 25.5, refundState: null });

    const replay = await api('POST', `/v1/payment/refund/${paymentId}`, { headers: { ...store.headers, 'idempotency-key': key }, body: { amount: 10 } });
    expect([replay.status, replay.body.code]).toEqual([402, 'refund_declined']);
    const { db } = await testServer();
    expect(await db.selectFrom('refunds').select('id').where('paymentId', '=', paymentId).execute()).toHaveLength(1);
    const callbacks = await db.selectFrom('callbackDeliveries').select('body').where('paymentId', '=', paymentId).execute();
    expect(callbacks.filter((row) => row.body.includes('refund.'))).toEqual([]);
  });
});

describe('a crash between the ledger step and the processor', () => {
  it('leaves the refund processing with the money in flight; the next server start settles it, once', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 25.5);
    const before = await books(store.account.accountId);
    const stalled = await stallingProcessor();
    const dying = await anotherApp(stalled.processor);
    const pending = fetch(`${dying.baseUrl}/v1/payment/refund/${paymentId}`, {
      method: 'POST',
      headers: { ...store.headers, 'idempotency-key': unique('crash'), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10 }),
    });
    const row = await waitFor(async () => ((await refundRow(paymentId))?.status === 'processing' && stalled.asked() > 0 ? refundRow(paymentId) : undefined));
    // Between the steps: taken from the owner (less the 0.20 fee back), held in flight.
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: -980, feeRevenue: -20, inFlight: 1000, cardClearing: 0 });
    const seen = await api('GET', `/v1/payment/refunds/${paymentId}`, { headers: store.headers });
    expect(seen.body.data).toMatchObject([{ refundId: row!.id, status: 'processing', completedAt: null }]);

    // A server starting now (same database) runs the sweep: the sandbox refunds the card.
    const restarted = await anotherApp();
    expect(await recoverRefunds(restarted.app.ctx, { olderThanMs: 0 })).toBe(1);
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: -980, feeRevenue: -20, inFlight: 0, cardClearing: 1000 });
    expect((await refundRow(paymentId))?.status).toBe('succeeded');
    expect(await recoverRefunds(restarted.app.ctx, { olderThanMs: 0 })).toBe(0);

    // The "dead" process's processor answers late (refused): the settled refund stays as it is.
    stalled.answer({ refunded: false, message: 'too late' });
    const late = await pending;
    expect(late.status).toBe(200);
    expect(((await late.json()) as { data: RefundView }).data.status).toBe('succeeded');
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: -980, feeRevenue: -20, inFlight: 0, cardClearing: 1000 });
    const { db } = await testServer();
    const callbacks = await db.selectFrom('callbackDeliveries').select('body').where('paymentId', '=', paymentId).execute();
    expect(callbacks.filter((callback) => callback.body.includes('"refund.succeeded"'))).toHaveLength(1);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('is undone on restart when the processor refuses it: the money goes back to the owner', async () => {
    const store = await createStore();
    const paymentId = await paidByCard(store, 25.5, '4000000000005126');
    const before = await books(store.account.accountId);
    const throwing: CardProcessor = { ...createSandboxProcessor((await testDatabase()).db), name: 'unreachable', refund: () => Promise.reject(new Error('connect ETIMEDOUT')) };
    const cut = await anotherApp(throwing);
    // The processor cannot be reached: the refund stays processing, answered as such.
    const answer = await fetch(`${cut.baseUrl}/v1/payment/refund/${paymentId}`, {
      method: 'POST',
      headers: { ...store.headers, 'idempotency-key': unique('cut'), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 25.5 }),
    });
    const body = (await answer.json()) as { message: string; data: RefundView };
    expect([answer.status, body.message, body.data.status]).toEqual([200, refundMessages.processing, 'processing']);
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: -2499, feeRevenue: -51, inFlight: 2550, cardClearing: 0 });

    const restarted = await anotherApp();
    expect(await recoverRefunds(restarted.app.ctx, { olderThanMs: 0 })).toBe(1);
    expect(change(before, await books(store.account.accountId))).toEqual({ owner: 0, feeRevenue: 0, inFlight: 0, cardClearing: 0 });
    const row = await refundRow(paymentId);
    expect([row?.status, row?.recoveryAttempts]).toEqual(['failed', 1]);
    const view = await api('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers });
    expect(view.body.data).toMatchObject({ amountRefunded: 0, amountRefundable: 25.5 });
    const { db } = await testServer();
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

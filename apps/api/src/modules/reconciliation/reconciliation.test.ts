import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { asCents, operatorMessages, paymentMessages, paymentRequestMessages, reconciliationMessages as rm, type ReconciliationMismatchView, type ReconciliationRunView } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { listenOnLoopback, testConfig, testDatabase, testServer } from '../../../test/harness.ts';
import { createAccount, createHolder, createOperator, createUser, unique, type TestAccount, type TestOperator, type TestUser } from '../../../test/factories.ts';
import { card, createdLink, createPayment, createStore, linkBodyFor, type TestLink as Link, type TestStore } from '../../../test/gateway-fixtures.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { createSandboxProcessor, type CardProcessor } from '../payments/card-processor.ts';

/*
 * Reconciliation of the card processor's records with the ledger (issue 26), over real HTTP on
 * the test database (PGlite or PostgreSQL). Each block runs an API process of its own whose
 * sandbox processor has a name of its own (a merchant account of its own at the processor):
 * Kestrel stamps that name on the payments it charges, so a block's reconciliation sees only
 * its own charges, whatever other test files do to the shared database meanwhile.
 *
 * The differences are planted the way they happen: a processor whose answer is lost after it
 * charged (the sandbox's test card 4000 0000 0000 0259), a charge whose recording fails and
 * whose void cannot reach the processor, a refund whose answer is lost; and, on the
 * processor's side, a record removed or an amount edited in its table.
 */

const NO_ANSWER = '4000 0000 0000 0259';
const DECLINED = '4000 0000 0000 0002';
const today = () => new Date().toISOString().slice(0, 10);

interface Call {
  status: number;
  body: any;
}

/** A processor of its own: the sandbox, with faults a test can script (a hook while a card is charged, voids that fail, a refund answer lost). */
function scriptedProcessor(name: string, db: Parameters<typeof createSandboxProcessor>[0]) {
  const sandbox = createSandboxProcessor(db, { name });
  const script: { duringCharge?: () => Promise<void>; voidFails: boolean; loseRefundAnswer: boolean; recordsFail: boolean } = {
    voidFails: false,
    loseRefundAnswer: false,
    recordsFail: false,
  };
  const processor: CardProcessor = {
    name,
    async charge(charge) {
      const outcome = await sandbox.charge(charge);
      const hook = script.duringCharge;
      script.duringCharge = undefined;
      if (hook) await hook();
      return outcome;
    },
    async void(reference) {
      if (script.voidFails) throw new Error('connect ETIMEDOUT');
      return sandbox.void(reference);
    },
    async refund(reference, amountCents, refundId, currency) {
      const outcome = await sandbox.refund(reference, amountCents, refundId, currency);
      if (script.loseRefundAnswer) {
        script.loseRefundAnswer = false;
        throw new Error('socket hang up');
      }
      return outcome;
    },
    settlementRecords: (day) => (script.recordsFail ? Promise.reject(new Error('connect ETIMEDOUT')) : sandbox.settlementRecords(day)),
  };
  return { processor, script, sandbox };
}

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** An API process on the test database with a processor of its own; `call` talks to it over HTTP. */
async function world() {
  const { db } = await testDatabase();
  const name = unique('sandbox-recon-');
  const scripted = scriptedProcessor(name, db);
  const config = testConfig();
  const app = await buildApp({ config, db, logger: false, webDist: path.join(config.dataDir, 'no-web'), cardProcessor: scripted.processor });
  const baseUrl = await listenOnLoopback(app);
  apps.push(app);
  const call = async (method: string, urlPath: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Call> => {
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: options.token } : {}), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { name, db, call, ...scripted };
}
type World = Awaited<ReturnType<typeof world>>;

let ops: TestOperator;
beforeAll(async () => {
  ops = await createOperator();
});

const payByCard = (w: World, paymentId: string, number = '4242 4242 4242 4242') => w.call('POST', `/v1/payment/complete/${paymentId}`, { body: card(number) });

async function run(w: World, day = today()): Promise<ReconciliationRunView> {
  const answer = await w.call('POST', '/v1/operator/reconciliation/runs', { token: ops.token, body: { day } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

async function mismatches(w: World, status: 'open' | 'resolved' | 'all' = 'open'): Promise<ReconciliationMismatchView[]> {
  const answer = await w.call('GET', `/v1/operator/reconciliation/mismatches?status=${status}&day=${today()}`, { token: ops.token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

const act = (w: World, mismatch: { _id: string }, action: 'void' | 'record' | 'resolve', reason = 'Checked with the processor', token = ops.token) =>
  w.call('POST', `/v1/operator/reconciliation/mismatches/${mismatch._id}/${action}`, { token, body: { reason } });

async function auditOf(subjectId: string) {
  const { db } = await testServer();
  return db.selectFrom('auditLog').select(['action', 'actorUserId', 'details']).where('subjectId', '=', subjectId).orderBy('id').execute();
}

async function sandboxRecord(w: World, where: { reference?: string; merchantReference?: string }) {
  let query = w.db.selectFrom('sandboxProcessorRecords').selectAll().where('processor', '=', w.name);
  if (where.reference) query = query.where('reference', '=', where.reference);
  if (where.merchantReference) query = query.where('merchantReference', '=', where.merchantReference);
  return query.executeTakeFirstOrThrow();
}

async function paymentReference(db: World['db'], paymentId: string): Promise<string> {
  const row = await db
    .selectFrom('payments')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'payments.paidLedgerTransactionId')
    .select(sql<string>`ledger_transactions.metadata->>'processorReference'`.as('reference'))
    .where('payments.id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return row.reference;
}

const createLink = async (w: World, owner: TestUser, account: TestAccount, overrides: Record<string, unknown> = {}): Promise<Link> =>
  createdLink(await w.call('POST', '/v1/payment-request/create', { token: owner.token, body: linkBodyFor(account, overrides) }));

const payLinkByCard = (w: World, link: Link, number = '4242 4242 4242 4242') =>
  w.call('POST', `/v1/payment-request/card/complete-payment/${link.pRequestURLId}`, { body: { ...card(number), email: 'vera@example.test', amount: 20, cardHolderName: 'Vera Visitor' } });

describe('clean books', () => {
  it('find nothing after card payments, link card payments, card refunds (one refused), declines and wallet payments', async () => {
    const w = await world();
    const store = await createStore();
    const paid: string[] = [];
    for (const amount of [25.5, 10, 7.25]) {
      const paymentId = await createPayment(store, { amount });
      expect((await payByCard(w, paymentId)).status).toBe(200);
      paid.push(paymentId);
    }
    const declined = await createPayment(store);
    expect((await payByCard(w, declined, DECLINED)).status).toBe(402);
    const refusesRefunds = await createPayment(store, { amount: 12 });
    expect((await payByCard(w, refusesRefunds, '4000 0000 0000 5126')).status).toBe(200);
    // A wallet payment is no card's: the processor never sees it.
    const payer = await createHolder(100_000);
    const byWallet = await createPayment(store, { amount: 3 });
    expect(
      (await w.call('POST', `/v1/payment/complete/kestrel/${byWallet}`, { token: payer.user.token, body: { accountNumber: payer.account.accountNumber, tpin: payer.account.tpin } })).status,
    ).toBe(200);
    const owner = await createUser();
    const ownerAccount = await createAccount(owner);
    const link = await createLink(w, owner, ownerAccount);
    expect((await payLinkByCard(w, link)).status).toBe(200);
    expect((await payLinkByCard(w, link, DECLINED)).status).toBe(402);
    const refund = (paymentId: string, amount: number) =>
      w.call('POST', `/v1/payment/refund/${paymentId}`, { headers: { ...store.headers, 'idempotency-key': unique('rf') }, body: { amount } });
    expect((await refund(paid[0]!, 10)).body.data.status).toBe('succeeded');
    expect((await refund(paid[1]!, 10)).body.data.status).toBe('succeeded');
    expect((await refund(refusesRefunds, 5)).status).toBe(402);

    const ran = await run(w);
    // 5 charges approved (3 + the refund-refusing card's + the link's) and 2 refunds made; declines and refused refunds are not the processor's records.
    // The ledger's: those 5 card payments and 3 card refunds (the refused one kept as failed).
    expect(ran).toMatchObject({ processor: w.name, day: today(), trigger: 'operator', processorRecords: 7, ledgerRecords: 8, mismatches: 0, open: 0 });
    expect(await mismatches(w, 'all')).toEqual([]);
    // Running the day again is safe: the same figures, one run.
    expect(await run(w)).toMatchObject({ _id: ran._id, processorRecords: 7, ledgerRecords: 8, mismatches: 0 });
    const runs = await w.call('GET', '/v1/operator/reconciliation/runs', { token: ops.token });
    expect(runs.body.data).toEqual([expect.objectContaining({ _id: ran._id, day: today() })]);
    expect(await auditOf(ran._id)).toEqual([
      expect.objectContaining({ action: 'reconciliation.run', actorUserId: ops.userId, details: expect.objectContaining({ day: today(), found: 0, processorRecords: 7 }) }),
      expect.objectContaining({ action: 'reconciliation.run' }),
    ]);
  });
});

describe('charged but not recorded', () => {
  let w: World;
  let store: TestStore;
  beforeAll(async () => {
    w = await world();
    store = await createStore();
  });

  it('is a processor answer lost after the charge: the payer gets 502, the run lists it, and Record pays the payment through the collect pipeline', async () => {
    const paymentId = await createPayment(store, { amount: 25.5 });
    const lost = await payByCard(w, paymentId, NO_ANSWER);
    expect([lost.status, lost.body.code, lost.body.error]).toEqual([502, 'card_processor_unavailable', paymentMessages.processorNoAnswer]);
    const charged = await sandboxRecord(w, { merchantReference: `payment:${paymentId}` });
    expect(charged).toMatchObject({ kind: 'charge', status: 'approved', amountCents: 2550, currency: 'USD', cardLast4: '0259', cardFirst6: '400000' });
    const before = await walletCents(store.account.accountId);

    const ran = await run(w);
    expect(ran).toMatchObject({ processorRecords: 1, ledgerRecords: 0, mismatches: 1, open: 1 });
    const [found] = await mismatches(w);
    expect(found).toMatchObject({
      kind: 'charge_not_recorded',
      reference: charged.reference,
      target: 'payment',
      recordId: paymentId,
      accountNumber: store.account.accountNumber,
      currency: 'USD',
      processorAmount: 25.5,
      ledgerAmount: null,
      transactionId: null,
      card: 'visa ending 0259',
      processorStatus: 'approved',
      ledgerStatus: null,
      status: 'open',
      actions: ['void', 'record', 'resolve'],
    });
    const overview = await w.call('GET', '/v1/operator/overview', { token: ops.token });
    expect(overview.body.data.reconciliationOpen).toBeGreaterThanOrEqual(1);

    const noReason = await act(w, found!, 'record', '   ');
    expect([noReason.status, noReason.body.fields?.reason]).toEqual([400, operatorMessages.reasonRequired]);
    const recorded = await act(w, found!, 'record', 'Processor timeout; the charge is real');
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body).toMatchObject({ message: rm.recorded, data: { status: 'resolved', resolution: 'recorded', resolutionReason: 'Processor timeout; the charge is real', resolvedBy: { userId: ops.userId }, actions: [] } });
    expect(recorded.body.data.transactionId).toMatch(/\S/);

    // Paid as any card payment: the payment, the owner's wallet (less the 2 % fee), the store's callback, the ledger's reference.
    const seen = await w.call('GET', `/v1/payment/paymentId/${paymentId}`, { headers: store.headers });
    expect(seen.body.data).toMatchObject({ paymentStatus: 'success', paymentSource: { type: 'card', brand: 'visa', number: '400000******0259' } });
    expect((await walletCents(store.account.accountId)) - before).toBe(2550 - 51);
    expect(await paymentReference(w.db, paymentId)).toBe(charged.reference);
    const callbacks = await w.db.selectFrom('callbackDeliveries').select('body').where('paymentId', '=', paymentId).execute();
    expect(callbacks.map((callback) => JSON.parse(callback.body).paymentStatus)).toEqual(['success']);
    const audit = await auditOf(found!._id);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'reconciliation.charge_recorded',
        actorUserId: ops.userId,
        details: expect.objectContaining({ reason: 'Processor timeout; the charge is real', reference: charged.reference, transactionId: seen.body.data.transactionId }),
      }),
    ]);
    expect(recorded.body.data.transactionId).toBe(seen.body.data.transactionId);

    // Done once: a second Record is refused, and a re-run finds nothing.
    expect((await act(w, found!, 'record')).body.code).toBe('mismatch_resolved');
    expect(await run(w)).toMatchObject({ processorRecords: 1, ledgerRecords: 1, mismatches: 0, open: 0 });
    expect((await verifyLedger(w.db)).problems).toEqual([]);
  });

  it('of a payment paid meanwhile by another card cannot be recorded (409 saying so); Void releases it at the processor', async () => {
    const paymentId = await createPayment(store, { amount: 9 });
    expect((await payByCard(w, paymentId, NO_ANSWER)).status).toBe(502);
    // The customer tries again and pays with another card.
    expect((await payByCard(w, paymentId)).status).toBe(200);
    const standing = await w.db
      .selectFrom('sandboxProcessorRecords')
      .selectAll()
      .where('processor', '=', w.name)
      .where('merchantReference', '=', `payment:${paymentId}`)
      .where('cardLast4', '=', '0259')
      .executeTakeFirstOrThrow();
    await run(w);
    const found = (await mismatches(w)).find((mismatch) => mismatch.reference === standing.reference)!;
    expect(found).toMatchObject({ kind: 'charge_not_recorded', recordId: paymentId, processorAmount: 9 });
    const before = await walletCents(store.account.accountId);

    const refused = await act(w, found, 'record');
    expect([refused.status, refused.body.code, refused.body.error]).toEqual([409, 'charge_not_payable', rm.notPayable(paymentMessages.alreadyPaid)]);
    expect(await walletCents(store.account.accountId)).toBe(before);

    const voided = await act(w, found, 'void', 'Customer paid with another card');
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ message: rm.voided, data: { resolution: 'voided', resolutionReason: 'Customer paid with another card' } });
    expect((await sandboxRecord(w, { reference: standing.reference })).status).toBe('voided');
    expect(await walletCents(store.account.accountId)).toBe(before);
    expect((await auditOf(found._id)).map((entry) => entry.action)).toEqual(['reconciliation.charge_voided']);
    expect((await run(w)).open).toBe(0);
    expect((await mismatches(w, 'all')).find((mismatch) => mismatch._id === found._id)).toMatchObject({ status: 'resolved', resolution: 'voided' });
  });

  it("is left standing when the recording fails and the void cannot reach the processor; Record waits until the link takes payments again", async () => {
    const owner = await createUser();
    const ownerAccount = await createAccount(owner);
    const link = await createLink(w, owner, ownerAccount);
    const lock = (action: 'lock' | 'unlock') => w.call('POST', `/v1/operator/accounts/${ownerAccount.accountId}/${action}`, { token: ops.token, body: { reason: 'Fraud check' } });
    // While the card is charged, an operator locks the owner's account: the recording is refused,
    // and the void that should follow cannot reach the processor.
    w.script.duringCharge = async () => {
      expect((await lock('lock')).status).toBe(200);
    };
    w.script.voidFails = true;
    const refused = await payLinkByCard(w, link);
    w.script.voidFails = false;
    expect([refused.status, refused.body.error]).toEqual([423, paymentRequestMessages.ownerLocked]);
    const standing = await sandboxRecord(w, { merchantReference: `link:${link.id}` });
    expect(standing).toMatchObject({ status: 'approved', billingName: 'Vera Visitor', billingEmail: 'vera@example.test' });
    // The failed undo kept the attempt's hold on the link; it ends at its expiry (a run meanwhile
    // takes the charge for one still on its way to the books).
    expect((await run(w)).open).toBe(0);
    await w.db.updateTable('paymentRequestHolds').set({ expiresAt: new Date(Date.now() - 1000) }).where('paymentRequestId', '=', link.id).execute();

    await run(w);
    const found = (await mismatches(w)).find((mismatch) => mismatch.reference === standing.reference)!;
    expect(found).toMatchObject({ kind: 'charge_not_recorded', target: 'link', recordId: link.id, accountNumber: ownerAccount.accountNumber, processorAmount: 20 });
    const stillLocked = await act(w, found, 'record');
    expect([stillLocked.status, stillLocked.body.code, stillLocked.body.error]).toEqual([409, 'charge_not_payable', rm.notPayable(paymentRequestMessages.ownerLocked)]);

    expect((await lock('unlock')).status).toBe(200);
    const recorded = await act(w, found, 'record', 'Lock lifted; the payer was charged');
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const payments = await w.db.selectFrom('paymentRequestPayments').selectAll().where('paymentRequestId', '=', link.id).execute();
    expect(payments).toEqual([
      expect.objectContaining({ amountCents: 2000, feeCents: 40, sourceType: 'card', sourceLast4: '4242', payerEmail: 'vera@example.test', cardHolderName: 'Vera Visitor' }),
    ]);
    expect(await walletCents(ownerAccount.accountId)).toBe(2000 - 40);
    expect((await run(w)).open).toBe(0);
  });
});

describe('recorded but not charged, and amounts that differ', () => {
  it('are found when the processor has no record of a paid payment, or another amount; only Resolve (with a reason) closes them', async () => {
    const w = await world();
    const store = await createStore();
    const gone = await createPayment(store, { amount: 30 });
    const edited = await createPayment(store, { amount: 40 });
    expect((await payByCard(w, gone)).status).toBe(200);
    expect((await payByCard(w, edited)).status).toBe(200);
    const goneReference = await paymentReference(w.db, gone);
    const editedReference = await paymentReference(w.db, edited);
    await w.db.deleteFrom('sandboxProcessorRecords').where('processor', '=', w.name).where('reference', '=', goneReference).execute();
    await w.db.updateTable('sandboxProcessorRecords').set({ amountCents: 4100 }).where('processor', '=', w.name).where('reference', '=', editedReference).execute();

    expect(await run(w)).toMatchObject({ processorRecords: 1, ledgerRecords: 2, mismatches: 2, open: 2 });
    const found = await mismatches(w);
    const notCharged = found.find((mismatch) => mismatch.kind === 'recorded_not_charged')!;
    const differs = found.find((mismatch) => mismatch.kind === 'charge_amount_differs')!;
    expect(notCharged).toMatchObject({ reference: goneReference, target: 'payment', recordId: gone, processorAmount: null, ledgerAmount: 30, processorStatus: null, ledgerStatus: 'paid', actions: ['resolve'] });
    expect(notCharged.transactionId).toMatch(/\S/);
    expect(differs).toMatchObject({ reference: editedReference, recordId: edited, processorAmount: 41, ledgerAmount: 40, processorStatus: 'approved', ledgerStatus: 'paid', card: 'visa ending 4242', actions: ['resolve'] });

    expect((await act(w, notCharged, 'void')).body.code).toBe('void_not_possible');
    expect((await act(w, differs, 'record')).body.code).toBe('record_not_possible');
    const resolved = await act(w, notCharged, 'resolve', 'Processor confirmed the charge by phone; their file was late');
    expect(resolved.body).toMatchObject({ message: rm.resolved, data: { resolution: 'resolved', resolvedBy: { userId: ops.userId, email: ops.email } } });
    expect((await auditOf(notCharged._id))[0]).toMatchObject({ action: 'reconciliation.resolved', details: expect.objectContaining({ reason: 'Processor confirmed the charge by phone; their file was late' }) });
    // Found again by the next run, it stays resolved; the other stays open.
    expect(await run(w)).toMatchObject({ mismatches: 2, open: 1 });

    // The processor's file corrected: the next run clears what it no longer finds.
    await w.db.updateTable('sandboxProcessorRecords').set({ amountCents: 4000 }).where('processor', '=', w.name).where('reference', '=', editedReference).execute();
    expect(await run(w)).toMatchObject({ mismatches: 1, open: 0 });
    expect((await mismatches(w, 'all')).find((mismatch) => mismatch._id === differs._id)).toMatchObject({ status: 'resolved', resolution: 'cleared', resolvedBy: null });
  });
});

describe('card refunds', () => {
  it('find a refund the processor made that the books do not have, one they have that it did not make, and another amount; Record settles a refund left processing', async () => {
    const w = await world();
    const store = await createStore();
    const payments: string[] = [];
    for (const amount of [20, 20, 20]) {
      const paymentId = await createPayment(store, { amount });
      expect((await payByCard(w, paymentId)).status).toBe(200);
      payments.push(paymentId);
    }
    const refund = (paymentId: string, amount: number) =>
      w.call('POST', `/v1/payment/refund/${paymentId}`, { headers: { ...store.headers, 'idempotency-key': unique('rf') }, body: { amount } });
    // The processor refunds the card but its answer is lost: the refund stays processing, its money in flight.
    w.script.loseRefundAnswer = true;
    const lost = await refund(payments[0]!, 5);
    expect(lost.body.data.status).toBe('processing');
    const lostId = lost.body.data.refundId as string;
    // Past the recovery sweep's time (the sweep would have settled it; here nobody did).
    await w.db.updateTable('refunds').set({ createdAt: sql<Date>`created_at - interval '3 minutes'` }).where('id', '=', lostId).execute();
    const removed = await refund(payments[1]!, 6);
    expect(removed.body.data.status).toBe('succeeded');
    await w.db.deleteFrom('sandboxProcessorRecords').where('processor', '=', w.name).where('merchantReference', '=', removed.body.data.refundId).execute();
    const edited = await refund(payments[2]!, 7);
    await w.db.updateTable('sandboxProcessorRecords').set({ amountCents: 800 }).where('processor', '=', w.name).where('merchantReference', '=', edited.body.data.refundId).execute();
    // A refund made at the processor's own dashboard, outside Kestrel.
    await w.processor.refund(await paymentReference(w.db, payments[2]!), asCents(100), randomUUID(), 'USD');

    const ran = await run(w);
    expect(ran).toMatchObject({ processorRecords: 3 + 3, ledgerRecords: 3 + 3, mismatches: 4, open: 4 });
    const found = await mismatches(w);
    const byKind = (kind: string, refundId?: string) => found.filter((mismatch) => mismatch.kind === kind && (refundId === undefined || mismatch.refundId === refundId));
    expect(byKind('refund_not_recorded', lostId)).toEqual([
      expect.objectContaining({ target: 'payment', recordId: payments[0], processorAmount: 5, ledgerAmount: 5, ledgerStatus: 'refund processing', processorStatus: 'refunded', actions: ['record', 'resolve'] }),
    ]);
    expect(byKind('refund_not_recorded').find((mismatch) => mismatch.refundId === null)).toMatchObject({ recordId: payments[2], processorAmount: 1, ledgerAmount: null, actions: ['resolve'] });
    expect(byKind('recorded_not_refunded')).toEqual([
      expect.objectContaining({ reference: removed.body.data.refundId, refundId: removed.body.data.refundId, processorAmount: null, ledgerAmount: 6, ledgerStatus: 'refund succeeded' }),
    ]);
    expect(byKind('refund_amount_differs')).toEqual([expect.objectContaining({ refundId: edited.body.data.refundId, processorAmount: 8, ledgerAmount: 7 })]);

    const settled = await act(w, byKind('refund_not_recorded', lostId)[0]!, 'record', 'Processor shows the refund done');
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const row = await w.db.selectFrom('refunds').select('status').where('id', '=', lostId).executeTakeFirstOrThrow();
    expect(row.status).toBe('succeeded');
    // Refunded once at the processor, whatever was asked again.
    expect(await w.db.selectFrom('sandboxProcessorRecords').select('id').where('processor', '=', w.name).where('merchantReference', '=', lostId).execute()).toHaveLength(1);
    expect((await auditOf(byKind('refund_not_recorded', lostId)[0]!._id)).map((entry) => entry.action)).toEqual(['reconciliation.refund_recorded']);
    expect(await run(w)).toMatchObject({ mismatches: 3, open: 3 });
    expect((await verifyLedger(w.db)).problems).toEqual([]);
  });
});

describe('who may act, and a processor that cannot answer', () => {
  it('never an operator on their own account’s money (403), and nobody but operators (404)', async () => {
    const w = await world();
    const insider = await createHolder();
    const store = await createStore();
    // The insider's own link, paid by a card whose answer was lost.
    const link = await createLink(w, insider.user, insider.account);
    expect((await payLinkByCard(w, link, NO_ANSWER)).status).toBe(502);
    await run(w);
    const [found] = await mismatches(w);
    expect(found).toMatchObject({ kind: 'charge_not_recorded', accountNumber: insider.account.accountNumber });
    // A wallet holder who became an operator before the rule existed (made so directly in the database).
    const { db } = await testServer();
    await db.updateTable('users').set({ isOperator: true }).where('id', '=', insider.user.userId).execute();
    for (const action of ['void', 'record', 'resolve'] as const) {
      const answer = await act(w, found!, action, 'mine', insider.user.token);
      expect([answer.status, answer.body.code, answer.body.error], action).toEqual([403, 'own_record', operatorMessages.ownRecord]);
    }
    const stranger = await createHolder();
    expect((await w.call('GET', '/v1/operator/reconciliation/mismatches', { token: stranger.user.token })).status).toBe(404);
    expect((await act(w, found!, 'void', 'x', store.owner.token)).status).toBe(404);
    expect((await w.call('POST', '/v1/operator/reconciliation/runs', { body: { day: today() } })).status).toBe(401);
    const future = await w.call('POST', '/v1/operator/reconciliation/runs', { token: ops.token, body: { day: '2999-01-01' } });
    expect([future.status, future.body.fields?.day]).toEqual([400, rm.dayInFuture]);
    const badDay = await w.call('POST', '/v1/operator/reconciliation/runs', { token: ops.token, body: { day: '2026-02-30' } });
    expect([badDay.status, badDay.body.fields?.day]).toEqual([400, rm.dayInvalid]);
    // Another operator voids it.
    expect((await act(w, found!, 'void', 'Payer asked for the charge to be released')).status).toBe(200);
  });

  it('is told when the processor cannot give its records, and nothing is stored', async () => {
    const w = await world();
    w.script.recordsFail = true;
    const answer = await w.call('POST', '/v1/operator/reconciliation/runs', { token: ops.token, body: { day: today() } });
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([502, 'card_processor_unavailable', rm.processorUnavailable]);
    expect((await w.call('GET', '/v1/operator/reconciliation/runs', { token: ops.token })).body.data).toEqual([]);
  });
});

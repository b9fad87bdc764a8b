import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { api, extraTestApp, testServer } from '../../../test/harness.ts';
import { card, createPayment, createStore } from '../../../test/gateway-fixtures.ts';
import { paymentMessages } from '@kestrel/shared';
import { voidUnlessRecorded, type CardProcessor } from './card-processor.ts';
import { paymentChargeRecorded } from './payments.repository.ts';

/** A processor that only notes what was voided. */
function recordingProcessor(): CardProcessor & { voided: string[] } {
  const voided: string[] = [];
  return {
    name: 'recording',
    voided,
    charge: () => Promise.reject(new Error('not used here')),
    void: async (reference) => {
      voided.push(reference);
    },
    refund: () => Promise.reject(new Error('not used here')),
    settlementRecords: () => Promise.reject(new Error('not used here')),
  };
}

const quietLog = () => {
  const errors: string[] = [];
  return { errors, error: (_object: object, message: string) => void errors.push(message) };
};

describe('a charge whose recording failed', () => {
  it('is voided only when the books show it was not recorded, and left standing (logged) when they cannot be asked', async () => {
    const processor = recordingProcessor();
    const log = quietLog();
    expect(await voidUnlessRecorded(processor, 'sbx_a', async () => false, log)).toBe('voided');
    expect(await voidUnlessRecorded(processor, 'sbx_b', async () => true, log)).toBe('recorded');
    expect(await voidUnlessRecorded(processor, 'sbx_c', () => Promise.reject(new Error('connection terminated')), log)).toBe('unknown');
    expect(processor.voided).toEqual(['sbx_a']);
    expect(log.errors).toEqual(['card charge left standing for reconciliation: could not tell whether it was recorded']);
  });

  it('is found in the books by its processor reference, for its own payment only', async () => {
    const { db } = await testServer();
    const store = await createStore();
    const paid = await createPayment(store);
    const other = await createPayment(store);
    expect((await api('POST', `/v1/payment/complete/${paid}`, { body: card('4242424242424242') })).status).toBe(200);
    const { reference } = await db
      .selectFrom('payments')
      .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'payments.paidLedgerTransactionId')
      .select(sql<string>`ledger_transactions.metadata->>'processorReference'`.as('reference'))
      .where('payments.id', '=', paid)
      .executeTakeFirstOrThrow();
    expect(reference).toMatch(/^sbx_/);
    expect(await paymentChargeRecorded(db, paid, reference)).toBe(true);
    expect(await paymentChargeRecorded(db, paid, 'sbx_someone_else')).toBe(false);
    expect(await paymentChargeRecorded(db, other, reference)).toBe(false);
  });

  it('answers 503 with Retry-After when the charge failed for a database outage (the sandbox keeps its records there), 502 when the processor is silent; the hold is released either way', async () => {
    const { db } = await testServer();
    const store = await createStore();
    // What `pg` throws when the server ends the connection mid-call (a switch, a restart).
    const outage = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const failures: Error[] = [outage, new Error('socket hang up')];
    const processor: CardProcessor = {
      name: 'failing',
      charge: () => Promise.reject(failures.shift() ?? new Error('no failure left')),
      void: () => Promise.resolve(),
      refund: () => Promise.reject(new Error('not used here')),
      settlementRecords: () => Promise.reject(new Error('not used here')),
    };
    const extra = await extraTestApp({}, { cardProcessor: processor });
    try {
      const pay = async (paymentId: string) => {
        const response = await fetch(`${extra.baseUrl}/v1/payment/complete/${paymentId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `fail-${paymentId}` },
          body: JSON.stringify(card()),
        });
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { code?: string; error?: string } };
      };
      const leaseOf = async (paymentId: string) =>
        (await db.selectFrom('payments').select('attemptLeaseUntil').where('id', '=', paymentId).executeTakeFirstOrThrow()).attemptLeaseUntil;

      const duringOutage = await createPayment(store);
      const unavailable = await pay(duringOutage);
      expect(unavailable.status).toBe(503);
      expect(unavailable.body.code).toBe('database_unavailable');
      expect(Number(unavailable.retryAfter)).toBeGreaterThan(0);
      expect(await leaseOf(duringOutage)).toBeNull();

      const silent = await createPayment(store);
      const noAnswer = await pay(silent);
      expect(noAnswer.status).toBe(502);
      expect(noAnswer.body).toMatchObject({ code: 'card_processor_unavailable', error: paymentMessages.processorNoAnswer });
      expect(await leaseOf(silent)).toBeNull();
    } finally {
      await extra.app.close();
    }
  });
});

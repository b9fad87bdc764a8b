import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { card, createPayment, createStore } from '../../../test/gateway-fixtures.ts';
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
});

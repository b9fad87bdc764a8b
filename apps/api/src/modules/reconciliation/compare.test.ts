import { asCents } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import type { SettlementRecord } from '../payments/card-processor.ts';
import { compare, targetOf, type CompareInput, type LedgerCharge } from './compare.ts';

/* The matching rules on their own: what crosses midnight, what is still on its way, what a void settles. */

const PAYMENT = '0f6d3a1e-4a4b-4c0d-9d5e-2b7a1c3d4e5f';

const charge = (reference: string, at: string, overrides: Partial<SettlementRecord> = {}): SettlementRecord => ({
  kind: 'charge',
  reference,
  chargeReference: null,
  merchantReference: `payment:${PAYMENT}`,
  currency: 'USD',
  amountCents: asCents(2550),
  status: 'approved',
  card: { brand: 'visa', first6: '424242', last4: '4242', length: 16, expiresIn: '12/34' },
  billing: { name: null, email: null },
  createdAt: new Date(at),
  ...overrides,
});

const booked = (reference: string, at: string): LedgerCharge => ({
  transactionId: `TX-${reference}`,
  reference,
  currency: 'USD',
  amountCents: asCents(2550),
  createdAt: new Date(at),
  target: 'payment',
  recordId: PAYMENT,
  accountId: 'acc',
});

const nothing: CompareInput = {
  dayRecords: [],
  nearbyRecords: [],
  ledgerCharges: [],
  chargesByReference: new Map(),
  ledgerRefunds: [],
  refundsById: new Map(),
  records: new Map(),
  refundInFlightSince: new Date('2026-05-02T00:00:00Z'),
};

describe('reconciliation rules', () => {
  it('match a charge made just before midnight and recorded just after, on both days', () => {
    const late = charge('sbx_late', '2026-05-01T23:59:59.900Z');
    const inBooks = booked('sbx_late', '2026-05-02T00:00:00.200Z');
    // The processor's day: the books have the reference (on the next day).
    expect(compare({ ...nothing, dayRecords: [late], nearbyRecords: [late], chargesByReference: new Map([['sbx_late', inBooks]]) })).toEqual([]);
    // The books' day: the processor's file of the day before has it.
    expect(compare({ ...nothing, nearbyRecords: [late], ledgerCharges: [inBooks] })).toEqual([]);
    // Without the day before's file the ledger's payment would look uncharged.
    expect(compare({ ...nothing, ledgerCharges: [inBooks] }).map((found) => found.kind)).toEqual(['recorded_not_charged']);
  });

  it('leave a charge alone while a card attempt holds its payment, and a charge voided that the books never had', () => {
    const onItsWay = charge('sbx_busy', '2026-05-01T10:00:00Z');
    const held = new Map([[`payment:${PAYMENT}`, { accountId: 'acc', held: true }]]);
    expect(compare({ ...nothing, dayRecords: [onItsWay], nearbyRecords: [onItsWay], records: held })).toEqual([]);
    const released = new Map([[`payment:${PAYMENT}`, { accountId: 'acc', held: false }]]);
    expect(compare({ ...nothing, dayRecords: [onItsWay], nearbyRecords: [onItsWay], records: released })).toEqual([
      expect.objectContaining({ kind: 'charge_not_recorded', reference: 'sbx_busy', target: 'payment', recordId: PAYMENT, accountId: 'acc', processorAmountCents: 2550, ledgerAmountCents: null }),
    ]);
    const voided = charge('sbx_void', '2026-05-01T10:00:00Z', { status: 'voided' });
    expect(compare({ ...nothing, dayRecords: [voided], nearbyRecords: [voided] })).toEqual([]);
    expect(compare({ ...nothing, dayRecords: [voided], nearbyRecords: [voided], chargesByReference: new Map([['sbx_void', booked('sbx_void', '2026-05-01T10:00:01Z')]]) }).map((found) => found.kind)).toEqual([
      'recorded_not_charged',
    ]);
  });

  it('read which payment or link a charge was for from its merchant reference', () => {
    expect(targetOf(`payment:${PAYMENT}`)).toEqual({ target: 'payment', id: PAYMENT });
    expect(targetOf(`link:${PAYMENT.toUpperCase()}`)).toEqual({ target: 'link', id: PAYMENT });
    expect(targetOf('order 42')).toBeNull();
    expect(targetOf(null)).toBeNull();
  });
});

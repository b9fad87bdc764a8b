import type { Selectable } from 'kysely';
import type { ReconciliationMismatchesTable } from '../../db/schema/reconciliation.ts';
import type { SettlementRecord } from '../payments/card-processor.ts';

/*
 * The matching rules of reconciliation, as a pure function of what was read: the processor's
 * records of the day (and of the days either side, for movements that cross midnight between
 * the processor and the books) and the ledger's card payments and card refunds.
 *
 * From the processor's records of the day:
 *   a charge approved that no ledger transaction records       → charge_not_recorded
 *     (unless a card attempt holds its payment or link now: it may be on its way)
 *   a charge voided that a ledger transaction records           → recorded_not_charged
 *   a charge both have, with another amount or currency          → charge_amount_differs
 *   a refund the books do not have, or have as failed, or still
 *     as processing after the recovery sweep's time              → refund_not_recorded
 *   a refund both have as done, with another amount or currency  → refund_amount_differs
 * From the ledger's movements of the day:
 *   a card payment the processor has no charge for               → recorded_not_charged
 *   a succeeded card refund the processor has no refund for      → recorded_not_refunded
 * Each difference is found by one side's day only, so two days' runs never list it twice.
 */

export interface LedgerCharge {
  transactionId: string;
  reference: string;
  currency: string;
  amountCents: number;
  createdAt: Date;
  target: 'payment' | 'link' | null;
  recordId: string | null;
  accountId: string | null;
}

export interface LedgerRefund {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  currency: string;
  amountCents: number;
  chargeReference: string | null;
  transactionId: string;
  createdAt: Date;
  accountId: string;
  target: 'payment' | 'link';
  recordId: string | null;
}

/** A payment or link a charge was for: whose account it pays, and whether a card attempt holds it now. */
export interface RecordState {
  accountId: string;
  held: boolean;
}

export interface MismatchDetails {
  card: string | null;
  processorStatus: string | null;
  ledgerStatus: string | null;
  processorAt: string | null;
  ledgerAt: string | null;
}

/** A difference as the run stores it: the reconciliation_mismatches columns it fills, with its details typed. */
export type FoundMismatch = Pick<
  Selectable<ReconciliationMismatchesTable>,
  'kind' | 'reference' | 'target' | 'recordId' | 'accountId' | 'refundId' | 'currency' | 'processorAmountCents' | 'ledgerAmountCents' | 'transactionId'
> & { details: MismatchDetails };

export interface CompareInput {
  /** The processor's records of the day. */
  dayRecords: readonly SettlementRecord[];
  /** The processor's records of the day before, the day and the day after. */
  nearbyRecords: readonly SettlementRecord[];
  /** The ledger's card payments of the day. */
  ledgerCharges: readonly LedgerCharge[];
  /** The ledger's card payments by reference, for the processor's charges of the day (and its refunds' charges). */
  chargesByReference: ReadonlyMap<string, LedgerCharge>;
  /** The ledger's card refunds of the day. */
  ledgerRefunds: readonly LedgerRefund[];
  /** The ledger's refunds by id, for the processor's refunds of the day. */
  refundsById: ReadonlyMap<string, LedgerRefund>;
  /** The payments and links the processor's charges name (`payment:<id>`, `link:<id>`). */
  records: ReadonlyMap<string, RecordState>;
  /** A refund processing longer than this is no longer "on its way" (the recovery sweep would have settled it). */
  refundInFlightSince: Date;
}

const MERCHANT_REFERENCE = /^(payment|link):([0-9a-f-]{36})$/i;

/** The payment or link a charge's merchant reference names. */
export function targetOf(merchantReference: string | null): { target: 'payment' | 'link'; id: string } | null {
  const match = merchantReference ? MERCHANT_REFERENCE.exec(merchantReference) : null;
  return match ? { target: match[1]!.toLowerCase() as 'payment' | 'link', id: match[2]!.toLowerCase() } : null;
}

const cardOf = (record: SettlementRecord | undefined): string | null =>
  record?.card.last4 ? `${record.card.brand ?? 'card'} ending ${record.card.last4}` : null;

const differs = (a: { amountCents: number; currency: string }, b: { amountCents: number; currency: string }) => a.amountCents !== b.amountCents || a.currency !== b.currency;

export function compare(input: CompareInput): FoundMismatch[] {
  const found: FoundMismatch[] = [];
  const nearbyCharges = new Map(input.nearbyRecords.filter((r) => r.kind === 'charge').map((r) => [r.reference, r]));
  const nearbyRefunds = new Map(input.nearbyRecords.filter((r) => r.kind === 'refund' && r.merchantReference).map((r) => [r.merchantReference!, r]));

  for (const record of input.dayRecords) {
    const details = (ledgerStatus: string | null, ledgerAt: Date | null): MismatchDetails => ({
      card: cardOf(record),
      processorStatus: record.status,
      ledgerStatus,
      processorAt: record.createdAt.toISOString(),
      ledgerAt: ledgerAt ? ledgerAt.toISOString() : null,
    });
    if (record.kind === 'charge') {
      const booked = input.chargesByReference.get(record.reference);
      const named = targetOf(record.merchantReference);
      const state = named ? input.records.get(`${named.target}:${named.id}`) : undefined;
      if (!booked) {
        if (record.status !== 'approved' || state?.held) continue;
        found.push({
          kind: 'charge_not_recorded',
          reference: record.reference,
          target: named?.target ?? null,
          recordId: named?.id ?? null,
          accountId: state?.accountId ?? null,
          refundId: null,
          currency: record.currency,
          processorAmountCents: record.amountCents,
          ledgerAmountCents: null,
          transactionId: null,
          details: details(null, null),
        });
        continue;
      }
      const both = {
        reference: record.reference,
        target: booked.target,
        recordId: booked.recordId,
        accountId: booked.accountId,
        refundId: null,
        currency: record.currency,
        processorAmountCents: record.amountCents,
        ledgerAmountCents: booked.amountCents,
        transactionId: booked.transactionId,
        details: details('paid', booked.createdAt),
      };
      if (record.status === 'voided') found.push({ kind: 'recorded_not_charged', ...both });
      else if (differs(record, booked)) found.push({ kind: 'charge_amount_differs', ...both });
      continue;
    }
    // A refund the processor made.
    const refund = record.merchantReference ? input.refundsById.get(record.merchantReference) : undefined;
    const charge = record.chargeReference ? input.chargesByReference.get(record.chargeReference) : undefined;
    const inFlight = refund?.status === 'processing' && refund.createdAt > input.refundInFlightSince;
    if (!refund || refund.status === 'failed' || (refund.status === 'processing' && !inFlight)) {
      found.push({
        kind: 'refund_not_recorded',
        reference: record.reference,
        target: refund?.target ?? charge?.target ?? null,
        recordId: refund?.recordId ?? charge?.recordId ?? null,
        accountId: refund?.accountId ?? charge?.accountId ?? null,
        refundId: refund?.id ?? null,
        currency: record.currency,
        processorAmountCents: record.amountCents,
        ledgerAmountCents: refund ? refund.amountCents : null,
        transactionId: refund?.transactionId ?? null,
        details: details(refund ? `refund ${refund.status}` : null, refund?.createdAt ?? null),
      });
    } else if (refund.status === 'succeeded' && differs(record, refund)) {
      found.push({
        kind: 'refund_amount_differs',
        reference: record.reference,
        target: refund.target,
        recordId: refund.recordId,
        accountId: refund.accountId,
        refundId: refund.id,
        currency: record.currency,
        processorAmountCents: record.amountCents,
        ledgerAmountCents: refund.amountCents,
        transactionId: refund.transactionId,
        details: details('refund succeeded', refund.createdAt),
      });
    }
  }

  for (const charge of input.ledgerCharges) {
    if (nearbyCharges.has(charge.reference)) continue;
    found.push({
      kind: 'recorded_not_charged',
      reference: charge.reference,
      target: charge.target,
      recordId: charge.recordId,
      accountId: charge.accountId,
      refundId: null,
      currency: charge.currency,
      processorAmountCents: null,
      ledgerAmountCents: charge.amountCents,
      transactionId: charge.transactionId,
      details: { card: null, processorStatus: null, ledgerStatus: 'paid', processorAt: null, ledgerAt: charge.createdAt.toISOString() },
    });
  }

  for (const refund of input.ledgerRefunds) {
    if (refund.status !== 'succeeded' || nearbyRefunds.has(refund.id)) continue;
    found.push({
      kind: 'recorded_not_refunded',
      reference: refund.id,
      target: refund.target,
      recordId: refund.recordId,
      accountId: refund.accountId,
      refundId: refund.id,
      currency: refund.currency,
      processorAmountCents: null,
      ledgerAmountCents: refund.amountCents,
      transactionId: refund.transactionId,
      details: {
        card: cardOf(refund.chargeReference ? nearbyCharges.get(refund.chargeReference) : undefined),
        processorStatus: null,
        ledgerStatus: 'refund succeeded',
        processorAt: null,
        ledgerAt: refund.createdAt.toISOString(),
      },
    });
  }
  return found;
}

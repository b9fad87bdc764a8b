import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp } from './columns.ts';

/*
 * Reconciliation (migration 0023): the sandbox card processor's own records (its settlement
 * file), and the runs that match a processor's records of a day with the ledger and what
 * they found to differ.
 */

/** A `date` column, read as 'YYYY-MM-DD' text (to_char) and written as such. */
type Day = ColumnType<string, string, string>;

/** A charge or refund the sandbox processor accepted, written by the sandbox itself. */
export interface SandboxProcessorRecordsTable {
  id: Generated<number>;
  processor: string;
  kind: 'charge' | 'refund';
  reference: string;
  chargeReference: string | null;
  merchantReference: string | null;
  currency: string;
  amountCents: number;
  cardBrand: string | null;
  cardFirst6: string | null;
  cardLast4: string | null;
  cardLength: number | null;
  cardExpiresIn: string | null;
  billingName: string | null;
  billingEmail: string | null;
  status: 'approved' | 'voided' | 'refunded';
  createdAt: CreatedAt;
  voidedAt: NullableTimestamp;
}

export type ReconciliationTrigger = 'job' | 'cli' | 'operator';

export interface ReconciliationRunsTable {
  id: Generated<string>;
  processor: string;
  day: Day;
  trigger: ReconciliationTrigger;
  requestedBy: string | null;
  processorRecords: number;
  ledgerRecords: number;
  mismatches: number;
  ranAt: CreatedAt;
}

export type MismatchKind = 'charge_not_recorded' | 'recorded_not_charged' | 'charge_amount_differs' | 'refund_not_recorded' | 'recorded_not_refunded' | 'refund_amount_differs';
export type MismatchResolution = 'voided' | 'recorded' | 'resolved' | 'cleared';

export interface ReconciliationMismatchesTable {
  id: Generated<string>;
  processor: string;
  day: Day;
  kind: MismatchKind;
  reference: string;
  target: 'payment' | 'link' | null;
  recordId: string | null;
  accountId: string | null;
  refundId: string | null;
  currency: string;
  processorAmountCents: number | null;
  ledgerAmountCents: number | null;
  transactionId: string | null;
  details: Json<Record<string, unknown>>;
  status: ColumnType<'open' | 'resolved', 'open' | 'resolved' | undefined, 'open' | 'resolved'>;
  resolution: MismatchResolution | null;
  resolutionReason: string | null;
  resolvedBy: string | null;
  resolvedAt: NullableTimestamp;
  claimedUntil: NullableTimestamp;
  firstSeenAt: CreatedAt;
  lastSeenAt: CreatedAt;
}

export interface ReconciliationTables {
  sandboxProcessorRecords: SandboxProcessorRecordsTable;
  reconciliationRuns: ReconciliationRunsTable;
  reconciliationMismatches: ReconciliationMismatchesTable;
}

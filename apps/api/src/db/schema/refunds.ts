import type { ColumnType } from 'kysely';
import type { CreatedAt, NullableTimestamp } from './columns.ts';

/** A refund of a gateway payment or a link payment (migration 0020), written by refund_post / refund_settle only. */
export interface RefundsTable {
  id: string;
  paymentId: string | null;
  linkPaymentId: string | null;
  accountId: string;
  storeId: string | null;
  currency: string;
  amountCents: number;
  feeCents: number;
  destinationType: 'card' | 'wallet';
  destinationAccountId: string | null;
  destinationMasked: string;
  processorReference: string | null;
  status: ColumnType<'processing' | 'succeeded' | 'failed', never, never>;
  reason: string | null;
  initiatedBy: 'store' | 'owner' | 'operator';
  initiatedByUserId: string | null;
  initiatedByName: string;
  ledgerTransactionId: number;
  settleLedgerTransactionId: number | null;
  transactionId: string;
  failureReason: string | null;
  recoveryAttempts: ColumnType<number, never, number>;
  createdAt: CreatedAt;
  completedAt: NullableTimestamp;
}

export interface RefundTables {
  refunds: RefundsTable;
}

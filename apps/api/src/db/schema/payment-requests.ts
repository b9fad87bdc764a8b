import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp } from './columns.ts';

/** Kysely's view of the payment-request tables (apart from schema.ts so each file stays small). */

export interface PaymentRequestsTable {
  id: Generated<string>;
  accountId: string;
  createdBy: string;
  pRequestUrlId: string;
  status: ColumnType<'active' | 'inactive', 'active' | 'inactive' | undefined, 'active' | 'inactive'>;
  paymentPurpose: string;
  reference: string;
  customerName: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  amountType: 'fixed' | 'customer-choosen';
  currency: string;
  amountCents: number | null;
  minimumAmountCents: number | null;
  maximumAmountCents: number | null;
  isUseLimit: Generated<boolean>;
  /** Uses remaining while is_use_limit is on; null otherwise. */
  useLimit: number | null;
  /** Uses held by card attempts in flight (payment_request_holds); a new hold needs useLimit > heldUses. */
  heldUses: Generated<number>;
  acceptsCard: boolean;
  acceptsKestrel: boolean;
  expiresAt: NullableTimestamp;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface PaymentRequestPaymentsTable {
  id: Generated<string>;
  paymentRequestId: string;
  accountId: string;
  ledgerTransactionId: number;
  transactionId: string;
  currency: string;
  amountCents: number;
  feeCents: number;
  sourceType: 'card' | 'wallet';
  sourceBrand: string | null;
  sourceFirst6: string | null;
  sourceLast4: string | null;
  sourceLength: number | null;
  payerAccountId: string | null;
  payerUserId: string | null;
  payerEmail: string | null;
  payerPhone: string | null;
  reference: string | null;
  cardHolderName: string | null;
  countryOrRegion: string | null;
  billingInfo: Json<Record<string, unknown>> | null;
  /** Refunds (issue 23): reserved by processing or succeeded refunds, and the fee returned so far (refund_post). */
  refundReservedCents: ColumnType<number, never, never>;
  feeReturnedCents: ColumnType<number, never, never>;
  createdAt: CreatedAt;
}

export interface PaymentRequestErrorsTable {
  id: Generated<number>;
  paymentRequestId: string;
  errorMessage: string;
  sourceBrand: string | null;
  sourceType: string | null;
  sourceNumberMasked: string | null;
  errorCode: string | null;
  errorAt: CreatedAt;
}

/** A use of a link held by a card attempt until recorded, declined or expired. */
export interface PaymentRequestHoldsTable {
  id: Generated<string>;
  paymentRequestId: string;
  expiresAt: Date;
  createdAt: CreatedAt;
}

export interface PaymentRequestTables {
  paymentRequests: PaymentRequestsTable;
  paymentRequestPayments: PaymentRequestPaymentsTable;
  paymentRequestErrors: PaymentRequestErrorsTable;
  paymentRequestHolds: PaymentRequestHoldsTable;
}

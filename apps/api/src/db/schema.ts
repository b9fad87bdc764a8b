import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp, Timestamp } from './schema/columns.ts';
import type { IdentityTables } from './schema/identity.ts';
import type { NotificationTables } from './schema/notifications.ts';
import type { PaymentRequestTables } from './schema/payment-requests.ts';
import type { ReconciliationTables } from './schema/reconciliation.ts';
import type { StatementTables } from './schema/statements.ts';
import type { RefundTables } from './schema/refunds.ts';
import type { WithdrawalInvoiceTables } from './schema/withdrawals-invoices.ts';

/**
 * Kysely's view of the tables (camelCase; the CamelCasePlugin maps to snake_case columns):
 * `Database` is every table, by area. The identity area (users, sessions, mail, audit) and
 * the withdrawals and invoices, the payment-request, refund, notification-event, reconciliation and statement-mail areas are in schema/; the wallet,
 * ledger and gateway areas are below. Table types are re-exported here, so code imports this file only.
 */
export type * from './schema/identity.ts';
export type * from './schema/withdrawals-invoices.ts';
export type * from './schema/payment-requests.ts';
export type * from './schema/refunds.ts';
export type * from './schema/notifications.ts';
export type * from './schema/reconciliation.ts';
export type * from './schema/statements.ts';

export interface AccountsTable {
  id: Generated<string>;
  accountNumber: string;
  accountType: 'personal' | 'business';
  accountHolderName: string;
  businessName: string | null;
  companyName: string | null;
  userName: string;
  accountEmail: string;
  accountPhone: string;
  identityType: 'nid' | 'passport' | 'drivingLicense' | 'tradeLicense';
  identityNumber: string;
  identityVerified: Generated<boolean>;
  dateOfBirth: ColumnType<Date, string, string>;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  notificationPreference: 'email' | 'sms';
  occupation: string;
  annualIncome: string;
  gatewayFeeFixedCents: Generated<number>;
  gatewayFeePercent: ColumnType<string, string | number | undefined, string | number>;
  paymentRequestFeeFixedCents: Generated<number>;
  paymentRequestFeePercent: ColumnType<string, string | number | undefined, string | number>;
  tpinHash: string;
  tpinFailedAttempts: Generated<number>;
  tpinLockedUntil: NullableTimestamp;
  moneyMovementLocked: Generated<boolean>;
  moneyMovementLockReason: string | null;
  /** Step-up (issue 25): movements on the TPIN alone may add up to this over 24 hours (default STEP_UP_THRESHOLD_CENTS). */
  stepUpThresholdCents: Generated<number>;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface AccountUsersTable {
  accountId: string;
  userId: string;
  role: Generated<string>;
  createdAt: CreatedAt;
}

export interface IdentityDocumentsTable {
  id: Generated<string>;
  accountId: string;
  storedName: string;
  mimeType: string;
  sizeBytes: number;
  setAsideAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface LedgerAccountsTable {
  id: Generated<number>;
  accountId: string | null;
  systemCode: string | null;
  currency: string;
  balanceCents: Generated<number>;
  createdAt: CreatedAt;
}

export interface LedgerTransactionsTable {
  id: Generated<number>;
  transactionId: string;
  kind: string;
  transactionFor: string;
  currency: string;
  amountCents: number;
  feeCents: Generated<number>;
  createdBy: string | null;
  metadata: Json<Record<string, unknown>>;
  createdAt: CreatedAt;
}

export interface LedgerPostingsTable {
  id: Generated<number>;
  ledgerTransactionId: number;
  ledgerAccountId: number;
  amountCents: number;
  createdAt: CreatedAt;
}

/** Credits not folded into a wallet's balance row yet (see db/functions/ledger_credit.sql). */
export interface LedgerPendingCreditsTable {
  ledgerAccountId: number;
  amountCents: number;
}

/** A view: each wallet ledger account's balance as a person sees it (folded + pending). */
export interface WalletBalancesView {
  ledgerAccountId: number;
  accountId: string;
  currency: string;
  balanceCents: number;
}

export interface IdempotencyKeysTable {
  caller: string;
  idempotencyKey: string;
  requestHash: string;
  responseStatus: number;
  responseBody: Json;
  createdAt: CreatedAt;
}

export interface ActivitiesTable {
  id: Generated<number>;
  accountId: string;
  name: string;
  comment: string | null;
  createdAt: CreatedAt;
}

export interface Database extends IdentityTables, WithdrawalInvoiceTables, PaymentRequestTables, RefundTables, NotificationTables, ReconciliationTables, StatementTables {
  accounts: AccountsTable;
  accountUsers: AccountUsersTable;
  identityDocuments: IdentityDocumentsTable;
  ledgerAccounts: LedgerAccountsTable;
  ledgerTransactions: LedgerTransactionsTable;
  ledgerPostings: LedgerPostingsTable;
  ledgerPendingCredits: LedgerPendingCreditsTable;
  walletBalances: WalletBalancesView;
  idempotencyKeys: IdempotencyKeysTable;
  activities: ActivitiesTable;
}

export interface TransfersTable {
  id: Generated<number>;
  ledgerTransactionId: number;
  fromAccountId: string;
  toAccountId: string;
  currency: string;
  amountCents: number;
  createdBy: string;
  createdAt: CreatedAt;
}

export interface Database {
  transfers: TransfersTable;
}

export type StoreStatus = 'Pending' | 'Approved' | 'Rejected' | 'Suspended';

export interface StoresTable {
  id: Generated<string>;
  storeId: string;
  accountId: string;
  createdBy: string;
  storeName: string;
  storeUrl: string;
  callbackUrl: string;
  logoStoredName: string;
  logoMimeType: string;
  storeKeyEncrypted: string;
  status: ColumnType<StoreStatus, StoreStatus | undefined, StoreStatus>;
  statusReason: string | null;
  reviewedBy: string | null;
  reviewedAt: NullableTimestamp;
  /** The key replaced by the last rotation, accepted until previousStoreKeyExpiresAt. */
  previousStoreKeyEncrypted: string | null;
  previousStoreKeyExpiresAt: NullableTimestamp;
  storeKeyRotatedAt: NullableTimestamp;
  /** "You got paid" mails to the owner (migration 0022); the owner switches them on the store page. */
  notifyOnPayment: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface StoreDocumentsTable {
  id: Generated<string>;
  storeId: string;
  storedName: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: CreatedAt;
}

export interface PaymentsTable {
  id: Generated<string>;
  storeId: string;
  accountId: string;
  urlId: string;
  orderId: string;
  currency: string;
  amountCents: number;
  feeCents: number | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  customerAddress: string;
  productName: string;
  cancelUrl: string;
  valueA: string | null;
  paymentStatus: ColumnType<'initiate' | 'success', 'initiate' | 'success' | undefined, 'initiate' | 'success'>;
  paymentSourceType: string | null;
  sourceBrand: string | null;
  sourceFirst6: string | null;
  sourceLast4: string | null;
  sourceLength: number | null;
  sourceExpiresIn: string | null;
  billingInfo: Json<Record<string, unknown>> | null;
  paidLedgerTransactionId: number | null;
  transactionId: string | null;
  paidAt: NullableTimestamp;
  attemptLeaseUntil: NullableTimestamp;
  /** Refunds (issue 23): reserved by processing or succeeded refunds, and the fee returned so far (refund_post). */
  refundReservedCents: ColumnType<number, never, never>;
  feeReturnedCents: ColumnType<number, never, never>;
  createdAt: CreatedAt;
}

export interface PaymentErrorsTable {
  id: Generated<number>;
  paymentId: string;
  errorMessage: string;
  sourceBrand: string | null;
  sourceType: string | null;
  sourceNumberMasked: string | null;
  /** The refusal's code (e.g. the processor's decline code); null on rows from before it was kept. */
  errorCode: string | null;
  /** The payment's store, so declines can be counted per store. */
  storeId: string | null;
  errorAt: CreatedAt;
}

export interface CallbackDeliveriesTable {
  id: Generated<number>;
  storeId: string;
  paymentId: string;
  targetUrl: string;
  body: string;
  state: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | 'delivered' | 'failed' | undefined, 'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  nextAttemptAt: CreatedAt;
  lastAttemptAt: NullableTimestamp;
  deliveredAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface CallbackAttemptsTable {
  id: Generated<number>;
  deliveryId: number;
  attemptedAt: Timestamp;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Database {
  stores: StoresTable;
  operatorApprovals: OperatorApprovalsTable;
  storeDocuments: StoreDocumentsTable;
  payments: PaymentsTable;
  paymentErrors: PaymentErrorsTable;
  callbackDeliveries: CallbackDeliveriesTable;
  callbackAttempts: CallbackAttemptsTable;
}


/** A four-eyes request: funding or a withdrawal's completion waiting for a second operator. */
export interface OperatorApprovalsTable {
  id: Generated<string>;
  kind: 'funding' | 'withdrawal_completion';
  status: ColumnType<'Pending' | 'Approved' | 'Refused', 'Pending' | undefined, 'Approved' | 'Refused'>;
  accountId: string;
  withdrawalId: string | null;
  currency: string;
  amountCents: ColumnType<number, number, number>;
  reason: string;
  neededBecause: string;
  requestedBy: string;
  requestedAt: CreatedAt;
  decidedBy: string | null;
  decidedAt: NullableTimestamp;
  decisionReason: string | null;
  transactionId: string | null;
}

import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables (camelCase; the CamelCasePlugin maps to snake_case columns). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp column with a database default (usually now()). */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string | T | undefined, string | T>;

export interface UsersTable {
  id: Generated<string>;
  firstName: string;
  lastName: string;
  email: string;
  contactNumber: string;
  passwordHash: string;
  isEmailVerified: Generated<boolean>;
  isOperator: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  revokedAt: NullableTimestamp;
  ip: string | null;
  userAgent: string | null;
}

export interface EmailVerificationTokensTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
}

export interface MailMessagesTable {
  id: Generated<string>;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  transport: string;
  createdAt: CreatedAt;
  sentAt: NullableTimestamp;
  error: string | null;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  succeeded: boolean;
  attemptedAt: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  actorUserId: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  ip: string | null;
  details: Json<Record<string, unknown>>;
  createdAt: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  emailVerificationTokens: EmailVerificationTokensTable;
  mailMessages: MailMessagesTable;
  loginAttempts: LoginAttemptsTable;
  auditLog: AuditLogTable;
}

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

export interface Database {
  accounts: AccountsTable;
  accountUsers: AccountUsersTable;
  identityDocuments: IdentityDocumentsTable;
  ledgerAccounts: LedgerAccountsTable;
  ledgerTransactions: LedgerTransactionsTable;
  ledgerPostings: LedgerPostingsTable;
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

export interface BankWithdrawalsTable {
  id: Generated<string>;
  accountId: string;
  requestedBy: string;
  currency: string;
  amountCents: number;
  status: ColumnType<'Pending' | 'Processing' | 'Completed' | 'Failed', 'Pending' | 'Processing' | 'Completed' | 'Failed' | undefined>;
  country: string;
  bankName: string;
  branchName: string | null;
  accountType: string | null;
  bankAccountNumber: string;
  routingNumber: string;
  accountHolderName: string;
  failureReason: string | null;
  holdTransactionId: number;
  returnTransactionId: number | null;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

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
  status: ColumnType<'Pending' | 'Approved' | 'Rejected', 'Pending' | 'Approved' | 'Rejected' | undefined, 'Pending' | 'Approved' | 'Rejected'>;
  statusReason: string | null;
  reviewedBy: string | null;
  reviewedAt: NullableTimestamp;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface InvoiceCountersTable {
  userId: string;
  lastNumber: number;
}

export interface InvoicesTable {
  id: Generated<string>;
  userId: string;
  invoiceNumber: number;
  name: string;
  phone: string;
  email: string;
  receiverName: string;
  unitPriceCents: number;
  quantity: number;
  totalCents: number;
  currency: ColumnType<string, string | undefined, string>;
  details: string;
  createdAt: CreatedAt;
}

export interface Database {
  bankWithdrawals: BankWithdrawalsTable;
  invoiceCounters: InvoiceCountersTable;
  invoices: InvoicesTable;
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
  createdAt: CreatedAt;
}

export interface PaymentErrorsTable {
  id: Generated<number>;
  paymentId: string;
  errorMessage: string;
  sourceBrand: string | null;
  sourceType: string | null;
  sourceNumberMasked: string | null;
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
  storeDocuments: StoreDocumentsTable;
  payments: PaymentsTable;
  paymentErrors: PaymentErrorsTable;
  callbackDeliveries: CallbackDeliveriesTable;
  callbackAttempts: CallbackAttemptsTable;
}

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
  createdAt: CreatedAt;
}

export interface PaymentRequestErrorsTable {
  id: Generated<number>;
  paymentRequestId: string;
  errorMessage: string;
  sourceBrand: string | null;
  sourceType: string | null;
  sourceNumberMasked: string | null;
  errorAt: CreatedAt;
}

export interface Database {
  paymentRequests: PaymentRequestsTable;
  paymentRequestPayments: PaymentRequestPaymentsTable;
  paymentRequestErrors: PaymentRequestErrorsTable;
}

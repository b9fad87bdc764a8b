import { z } from 'zod';
import { amountCents } from '../money-schema.ts';
import { currencyCode } from './common.ts';

/** GET /v1/operator/identity-reviews: an account whose identity documents wait for review. */
export const identityReview = z.object({
  accountId: z.string(),
  accountNumber: z.string(),
  accountHolderName: z.string(),
  identity: z.object({ type: z.string(), number: z.string() }),
  documents: z.array(z.object({ _id: z.string(), url: z.string(), createdAt: z.string() })),
});
export type IdentityReview = z.infer<typeof identityReview>;
export const identityReviewList = z.array(identityReview);

export const verifyIdentityParams = z.object({ accountId: z.uuid() });
export const verifyIdentityResult = z.object({ accountId: z.string(), isVerified: z.literal(true) });
export type VerifyIdentityResult = z.infer<typeof verifyIdentityResult>;

/*
 * The operator console's own routes (all behind requireOperator). Every route that changes
 * something takes a reason; amounts go out in major units like the rest of the API.
 */

export const operatorMessages = {
  reasonRequired: 'Reason is required',
  reasonTooLong: 'Reason must be at most 500 characters',
  amountRequired: 'Amount is required',
  amountInvalid: 'Enter an amount greater than 0 with at most two decimals',
  searchTooShort: 'Type at least 2 characters to search',
  locked: 'Money movement locked',
  unlocked: 'Money movement unlocked',
  funded: 'Wallet funded',
  documentsRequested: 'New documents requested',
  callbackResent: 'Callback queued again',
  ownRecord: 'Operators cannot act on their own account, store, withdrawal or identity review. Ask another operator.',
  operatorCannotHoldAccount: 'Operator users cannot open or hold a wallet account. Use a separate, non-operator user for a wallet.',
  sentForApproval: 'Sent for approval: a second operator must approve it',
  approvalApproved: 'Approved and carried out',
  approvalRefused: 'Request refused',
  cannotDecideOwn: 'You cannot approve or refuse your own request. Another operator must decide.',
  approvalNotPending: 'This request has already been decided',
  approvalNotFound: 'Approval request not found',
} as const;

/** A reason for a change: shown in the audit log and, where it concerns them, to the holder. */
export const operatorReason = z
  .string({ error: operatorMessages.reasonRequired })
  .trim()
  .min(1, operatorMessages.reasonRequired)
  .max(500, operatorMessages.reasonTooLong);
export const reasonBody = z.object({ reason: operatorReason });
export type ReasonBody = z.infer<typeof reasonBody>;

export const operatorAccountParams = z.object({ accountId: z.uuid() });

/** GET /v1/operator/overview: how long each queue is. */
export const operatorOverview = z.object({
  storesPending: z.number().int(),
  withdrawalsPending: z.number().int(),
  withdrawalsProcessing: z.number().int(),
  identityReviewsWaiting: z.number().int(),
  callbacksFailing: z.number().int(),
  reconciliationOpen: z.number().int().describe("Differences between the card processor's records and the ledger still open"),
});
export type OperatorOverview = z.infer<typeof operatorOverview>;

/** GET /v1/operator/accounts?q=: by account number, user name, e-mail or phone (partial, case-insensitive). */
export const accountSearchQuery = z.object({
  q: z.string({ error: operatorMessages.searchTooShort }).trim().min(2, operatorMessages.searchTooShort).max(100),
});
export const operatorAccountSummary = z.object({
  accountId: z.string(),
  accountNumber: z.string(),
  accountType: z.string(),
  accountHolderName: z.string(),
  userName: z.string(),
  accountEmail: z.string(),
  accountPhone: z.string(),
  identityVerified: z.boolean(),
  moneyMovementLocked: z.boolean(),
});
export type OperatorAccountSummary = z.infer<typeof operatorAccountSummary>;
export const accountSearchResult = z.array(operatorAccountSummary);

const moneyLine = z.object({ currency: z.string(), amount: z.number() });

/** GET /v1/operator/accounts/{accountId}: everything the back office needs about one account. */
export const operatorAccountDetail = z.object({
  account: operatorAccountSummary.extend({
    moneyMovementLockReason: z.string().nullable(),
    identityType: z.string(),
    identityNumber: z.string(),
    dateOfBirth: z.string(),
    address: z.string(),
    createdAt: z.string(),
  }),
  balances: z.array(moneyLine),
  postings: z.array(
    z.object({ transactionId: z.string(), kind: z.string(), transactionFor: z.string(), currency: z.string(), amount: z.number(), createdAt: z.string() }),
  ),
  activities: z.array(z.object({ name: z.string(), comment: z.string().nullable(), createdAt: z.string() })),
  stores: z.array(z.object({ _id: z.string(), storeId: z.string(), storeName: z.string(), status: z.string(), createdAt: z.string() })),
  payments: z.array(
    z.object({ urlId: z.string(), orderId: z.string(), storeName: z.string(), currency: z.string(), amount: z.number(), paymentStatus: z.string(), createdAt: z.string() }),
  ),
  withdrawals: z.array(z.object({ _id: z.string(), currency: z.string(), amount: z.number(), status: z.string(), bankName: z.string(), createdAt: z.string() })),
});
export type OperatorAccountDetail = z.infer<typeof operatorAccountDetail>;

/** POST /v1/operator/accounts/{accountId}/lock and /unlock. */
export const moneyLockResult = z.object({ accountId: z.string(), moneyMovementLocked: z.boolean() });
export type MoneyLockResult = z.infer<typeof moneyLockResult>;

/** POST /v1/operator/accounts/{accountId}/fund: from the funding system account; Idempotency-Key makes retries safe. */
export const fundWalletBody = z.object({
  amount: amountCents(operatorMessages.amountRequired, operatorMessages.amountInvalid),
  currency: currencyCode,
  reason: operatorReason,
});
export type FundWalletInput = z.input<typeof fundWalletBody>;
export const fundWalletResult = z.object({ transactionId: z.string(), accountId: z.string(), currency: z.string(), amount: z.number(), balance: z.number() });
export type FundWalletResult = z.infer<typeof fundWalletResult>;

/** POST /v1/operator/accounts/{accountId}/identity/request-documents. */
export const requestDocumentsResult = z.object({ accountId: z.string(), documentsSetAside: z.number().int() });

/** GET /v1/operator/ledger-health: the figures `npm run ledger:verify` checks, live. */
export const ledgerHealth = z.object({
  healthy: z.boolean(),
  checkedAt: z.string(),
  transactions: z.number().int(),
  postings: z.number().int(),
  walletAccounts: z.number().int(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), offending: z.array(z.string()) })),
  systemAccounts: z.array(z.object({ code: z.string(), currency: z.string(), balance: z.number() })),
  totalInWallets: z.array(moneyLine),
  totalInFlight: z.array(moneyLine),
});
export type LedgerHealth = z.infer<typeof ledgerHealth>;

/** GET /v1/operator/audit-log: newest first, paged. */
export const auditLogQuery = z.object({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  subject: z.string().trim().max(200).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type AuditLogQueryInput = z.input<typeof auditLogQuery>;
export const auditLogEntry = z.object({
  id: z.number().int(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntry>;
export const auditLogPage = z.object({ items: z.array(auditLogEntry), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
export type AuditLogPage = z.infer<typeof auditLogPage>;

/** GET /v1/operator/callbacks: deliveries failing (given up, or waiting to retry after a failed attempt), newest first, paged. */
export const failingCallbacksQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type FailingCallbacksQueryInput = z.input<typeof failingCallbacksQuery>;
export const failingCallback = z.object({
  _id: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  paymentId: z.string(),
  targetUrl: z.string(),
  state: z.enum(['pending', 'failed']),
  attempts: z.number().int(),
  lastAttempt: z.object({ attemptedAt: z.string(), statusCode: z.number().int().nullable(), error: z.string().nullable() }).nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type FailingCallback = z.infer<typeof failingCallback>;
export const failingCallbacksPage = z.object({ items: z.array(failingCallback), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
export type FailingCallbacksPage = z.infer<typeof failingCallbacksPage>;

/** POST /v1/operator/callbacks/{deliveryId}/resend. */
export const callbackDeliveryParams = z.object({ deliveryId: z.string().max(20) });
export const operatorResentCallback = z.object({ _id: z.string(), state: z.literal('pending'), nextAttemptAt: z.string() });

/*
 * Four eyes (maker–checker). Funding above FOUR_EYES_FUNDING_ABOVE_CENTS, or past the
 * requester's daily cap, and completing a withdrawal of FOUR_EYES_WITHDRAWAL_FROM_CENTS or
 * more answer 202 with a Pending approval; a second, different operator approves (which
 * carries out the movement, exactly once) or refuses it.
 */
export const approvalKind = z.enum(['funding', 'withdrawal_completion']);
export const approvalStatus = z.enum(['Pending', 'Approved', 'Refused']);
const operatorRef = z.object({ userId: z.string(), email: z.string(), name: z.string() });
export const operatorApprovalView = z.object({
  _id: z.string(),
  kind: approvalKind,
  status: approvalStatus,
  accountId: z.string(),
  accountNumber: z.string(),
  accountHolderName: z.string(),
  withdrawalId: z.string().nullable(),
  currency: z.string(),
  amount: z.number(),
  reason: z.string(),
  neededBecause: z.enum(['above_threshold', 'daily_cap']).describe('above_threshold: the amount needs four eyes; daily_cap: the requester has used up their daily funding cap'),
  requestedBy: operatorRef,
  requestedAt: z.string(),
  decidedBy: operatorRef.nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  transactionId: z.string().nullable(),
});
export type OperatorApprovalView = z.infer<typeof operatorApprovalView>;
export const operatorApprovalsQuery = z.object({ status: approvalStatus.default('Pending') });
export const approvalIdParams = z.object({ approvalId: z.uuid() });

/** GET /v1/operator/today: each operator's money movements today (UTC), from the audit log. */
export const operatorDayTotals = z.object({
  date: z.string().describe('The UTC day, YYYY-MM-DD'),
  dailyFundingCap: z.number(),
  operators: z.array(
    operatorRef.extend({
      funded: z.number().describe('Funding this operator requested and that was carried out today (alone or approved)'),
      fundedAlone: z.number().describe('Funding carried out without a second operator: counts against the daily cap'),
      capLeft: z.number(),
      paidOut: z.number().describe('Withdrawals this operator completed or asked to complete, carried out today'),
      approved: z.number().int().describe("Other operators' requests this operator approved today"),
      refused: z.number().int(),
      pending: z.number().int().describe("This operator's requests still waiting for a second operator"),
    }),
  ),
});
export type OperatorDayTotals = z.infer<typeof operatorDayTotals>;

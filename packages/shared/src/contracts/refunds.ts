import { z } from 'zod';
import { REFUND_WINDOW_DAYS } from '../constants.ts';
import { amountCents } from '../money-schema.ts';
import { paymentMessages } from '../pay-messages.ts';
import { majorUnits } from './common.ts';
import { operatorReason } from './operator.ts';
import { tpinValue } from './transfers.ts';

/*
 * Refunds (issue 23): money of a successful payment given back, in full or in parts, to the
 * payer (a wallet payer's wallet, a card payer's card), taken from the owner's wallet, with the
 * fee returned in proportion. A refund is asked for by the store (store API), the owner
 * (portal, with the account's TPIN) or an operator (console, with a reason). The payment's
 * `paymentStatus` stays `success`; `refundState` says "Refunded" or "Partially refunded".
 */

/** A refund's state: `processing` while a card refund waits for the processor, then `succeeded` or `failed` (nothing moved). */
export const REFUND_STATUSES = ['processing', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const refundStatus = z.enum(REFUND_STATUSES);

/** Who asked for a refund. */
export const REFUND_INITIATORS = ['store', 'owner', 'operator'] as const;
export type RefundInitiator = (typeof REFUND_INITIATORS)[number];

/** How much of a payment is refunded: none yet, part of it, all of it. */
export const REFUND_STATES = ['partially_refunded', 'refunded'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/** The most characters a refund's reason keeps. */
export const REFUND_REASON_MAX_CHARS = 500;

/** The labels shown beside `paymentStatus` (the details page, the lists). */
export const refundStateLabels: Record<RefundState, string> = { partially_refunded: 'Partially refunded', refunded: 'Refunded' };

/** Every user-facing text of refunds, and the API's error messages (each with its code below). */
export const refundMessages = {
  /** The success message of every refund route. */
  created: 'Refund successful',
  /** A card refund the processor had not answered yet (left to the recovery sweep). */
  processing: 'Refund is being processed',
  amountRequired: 'amount is required',
  amountInvalid: paymentMessages.amountInvalid,
  reasonTooLong: `Reason must be at most ${REFUND_REASON_MAX_CHARS} characters`,
  /** 400 refund_currency_mismatch. */
  currencyMismatch: (currency: string) => `A refund is made in the payment's currency (${currency})`,
  /** 409 refund_exceeds_remaining: more than what is left to refund (the text names what is left, formatted). */
  exceedsRemaining: (remaining: string) => `The refund is more than what is left to refund (${remaining})`,
  /** 409 refund_exceeds_remaining when nothing is left. */
  fullyRefunded: 'This payment is already fully refunded',
  /** 409 payment_not_refundable: an unpaid (initiated) or failed payment. */
  notRefundable: 'Only a successful payment can be refunded',
  /** 409 refund_window_closed. */
  windowClosed: `A payment can be refunded within ${REFUND_WINDOW_DAYS} days`,
  /** 409 refund_insufficient_balance: the owner's wallet cannot cover the refund. */
  insufficientBalance: "The account's available balance cannot cover this refund",
  /** 402 refund_declined: the card processor refused the refund; the money went back to the owner. */
  declined: 'The card network refused the refund; nothing was taken from the account',
  /** 409 refund_in_progress: another refund of this payment is being made at this moment. */
  inProgress: 'Another refund of this payment is in progress; try again in a moment',
  /** 400 idempotency_key_required (store API). */
  idempotencyKeyRequired: 'Idempotency-Key header is required',
  /** 404 payment_not_found (also another store's or owner's payment). */
  notFound: paymentMessages.notFound,
  /** The details page. */
  refundButton: 'Refund',
  formTitle: 'Refund payment',
  amountLabel: 'Amount',
  reasonLabel: 'Reason (optional)',
  tpinLabel: 'TPIN',
  submit: 'Refund',
  refundsTitle: 'Refunds',
  noRefunds: 'No refunds',
} as const;

/** The error codes the refund routes answer (beside the usual 400 validation_error, 401, 403, 404, 422 idempotency_key_reused). */
export const REFUND_ERROR_CODES = {
  currencyMismatch: 'refund_currency_mismatch',
  exceedsRemaining: 'refund_exceeds_remaining',
  notRefundable: 'payment_not_refundable',
  windowClosed: 'refund_window_closed',
  insufficientBalance: 'refund_insufficient_balance',
  declined: 'refund_declined',
  inProgress: 'refund_in_progress',
  idempotencyKeyRequired: 'idempotency_key_required',
  notFound: 'payment_not_found',
} as const;

const refundAmount = amountCents(refundMessages.amountRequired, refundMessages.amountInvalid);
const refundReason = z.string().trim().max(REFUND_REASON_MAX_CHARS, refundMessages.reasonTooLong).optional().transform((value) => value || undefined);

/**
 * POST /v1/payment/refund/{paymentId} (store API: storeId/storeKey headers, Idempotency-Key
 * required). `amount` in major units; omitted = what is left. `currency`, when sent, must be
 * the payment's.
 */
export const refundBody = z
  .object({
    amount: refundAmount.optional(),
    currency: z.string().trim().max(10).optional(),
    reason: refundReason,
  })
  .strict();
export type RefundInput = z.input<typeof refundBody>;
export type RefundBody = z.output<typeof refundBody>;

/** POST /v1/payment/details/{paymentId}/refund (the signed-in owner; a gateway or link payment): the receiving account's TPIN. */
export const ownerRefundBody = z
  .object({
    amount: refundAmount.optional(),
    currency: z.string().trim().max(10).optional(),
    reason: refundReason,
    tpin: tpinValue,
  })
  .strict();
export type OwnerRefundInput = z.input<typeof ownerRefundBody>;
export type OwnerRefundBody = z.output<typeof ownerRefundBody>;

/** POST /v1/operator/payments/{paymentId}/refund: on a customer's behalf, with a reason (audit trail). */
export const operatorRefundBody = z
  .object({
    amount: refundAmount.optional(),
    currency: z.string().trim().max(10).optional(),
    reason: operatorReason,
  })
  .strict();
export type OperatorRefundInput = z.input<typeof operatorRefundBody>;
export type OperatorRefundBody = z.output<typeof operatorRefundBody>;

/** The details page's refund form (amount as typed; the page fills in what is left). */
export const refundForm = z.object({
  amount: refundAmount,
  reason: refundReason,
  tpin: tpinValue,
});
export type RefundFormInput = z.input<typeof refundForm>;
export type RefundFormValues = z.output<typeof refundForm>;

/** One refund, as every route answers and lists it. */
export const refundView = z.object({
  refundId: z.string(),
  paymentId: z.string().describe('The refunded payment (a gateway payment or a payment-request link payment)'),
  amount: majorUnits.describe('The amount refunded to the payer, major units'),
  currency: z.string(),
  fee: z.object({ amount: majorUnits, currency: z.string() }).describe("The part of the payment's fee returned to the owner with this refund"),
  status: refundStatus,
  reason: z.string().nullable(),
  initiatedBy: z.object({ kind: z.enum(REFUND_INITIATORS), name: z.string().describe('The store, the owner, or "Kestrel support"') }),
  destination: z.object({ type: z.enum(['card', 'wallet']), number: z.string().describe('Masked card (first 6, last 4) or wallet (last 4)') }),
  transactionId: z.string().nullable().describe('The ledger transaction of the refund (null while it cannot be told)'),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type RefundView = z.infer<typeof refundView>;
export const refundList = z.array(refundView);

/** What a payment's refunds add to its view (gateway payments and link payments alike). */
export const refundSummaryFields = {
  refunds: z.array(refundView).describe('Every refund, newest first'),
  amountRefunded: majorUnits.describe('Sum of the succeeded refunds'),
  amountRefundable: majorUnits.describe('What is left to refund (0 for an unpaid payment)'),
  refundState: z.enum(REFUND_STATES).nullable().describe('"partially_refunded" or "refunded"; null while nothing is refunded. paymentStatus stays "success".'),
};

/** GET /v1/operator/payments/{paymentId}: a payment as the console needs it to refund it. */
export const operatorPaymentView = z.object({
  paymentId: z.string(),
  kind: z.enum(['gateway', 'link']),
  paymentStatus: z.enum(['initiate', 'success']),
  amount: majorUnits,
  currency: z.string(),
  fee: majorUnits,
  accountNumber: z.string().describe("The receiving (owner's) account"),
  storeName: z.string().nullable(),
  orderId: z.string().nullable(),
  paidAt: z.string().nullable(),
  ...refundSummaryFields,
});
export type OperatorPaymentView = z.infer<typeof operatorPaymentView>;

/**
 * The refund callback: POSTed to the store's callbackURL when a refund of one of its payments
 * succeeds, signed like the payment callback (header Kestrel-Signature).
 */
export const REFUND_CALLBACK_EVENT = 'refund.succeeded';
export const storeRefundCallbackEvent = z.object({
  event: z.literal(REFUND_CALLBACK_EVENT),
  refundId: z.string(),
  paymentId: z.string(),
  orderId: z.string(),
  currency: z.string(),
  amount: majorUnits.describe('This refund'),
  fee: majorUnits.describe('The fee returned with this refund'),
  amountRefunded: majorUnits.describe('Every succeeded refund of the payment so far, this one included'),
  amountRemaining: majorUnits.describe('What is left to refund'),
  refundStatus: z.literal('succeeded'),
  tnxId: z.string().describe('The ledger transaction of the refund'),
  refundedAt: z.string(),
});
export type StoreRefundCallbackEvent = z.infer<typeof storeRefundCallbackEvent>;

/** A payment's counters of refunds (payments lists, gateway list, payment-request list). */
export const refundCounterFields = {
  refundCount: z.number().int().describe('How many refunds succeeded'),
  refundedAmount: majorUnits.describe('Their sum'),
};

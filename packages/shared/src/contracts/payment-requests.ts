import { z } from 'zod';
import { AMOUNT_TYPES, CURRENCIES, MIN_PAYMENT_CENTS, PAYMENT_METHODS, PAYMENT_REQUEST_STATUSES, type Currency } from '../constants.ts';
import { messages } from '../messages.ts';
import { amountCents } from '../money-schema.ts';
import { formatMoney, type Cents } from '../money.ts';
import { paymentMessages } from '../pay-messages.ts';
import { linkPayMessages, requiredText, type PaymentMethod } from '../payment-request-messages.ts';
import { tpinValue } from './transfers.ts';
import { paymentErrorView } from './payments.ts';
import { refundCounterFields } from './refunds.ts';

/*
 * Payment-request links: an account holder creates a link (fixed amount or one the payer
 * chooses, optional use limit, optional expiry) that anyone can pay by card or from a Kestrel
 * wallet. Owner routes under /v1/payment-request, the public page's read and pay routes, and
 * the link payments under /v1/payment.
 */

/** The new-request form's labels (here, not beside the messages: the pay page needs none of them); '{label} is required' is built from them (section 5). */
export const paymentRequestLabels = {
  paymentPurpose: 'Payment Purpose',
  reference: 'Reference',
  isUseLimit: 'Is Use Limit',
  useLimit: 'Use Limit',
  amountType: 'Amount Type',
  amount: 'Amount',
  minimumAmount: 'Minimum Amount',
  maximumAmount: 'Maximum Amount',
  paymentMethods: 'Payment Methods',
  customerName: 'Customer Name',
  customerEmail: 'Customer Email',
  customerPhone: 'Customer Phone',
  expiresAt: 'Expires At',
  tpin: 'TPIN',
  accountNumber: 'Account Number',
} as const;

/** Every user-facing text of the payment-request pages and routes; the spec's are exact. */
export const paymentRequestMessages = {
  ...linkPayMessages,
  required: requiredText,
  created: 'Congratulations! You create new payment request',
  statusUpdated: 'Status updated',
  statusUpdateFailed: 'Status update failed!',
  limitUpdated: 'Limit updated',
  limitUpdateFailed: 'Update failed!',
  noLinks: 'You have no payment link',
  createNew: 'Create New',
  newRequest: '+ New Request',
  noDetails: 'No details found!',
  /** A fixed-amount link paid with another amount (API). */
  amountMismatch: (value: Cents, currency: Currency = 'USD') => `This link is for exactly ${formatMoney(value, currency)}`,
  minimumAboveMaximum: 'Minimum Amount must not be more than Maximum Amount',
  useLimitRequired: 'Use Limit is required',
  useLimitInvalid: 'Use Limit must be a whole number of at least 1',
  limitInvalid: 'Limit must be a whole number of 0 or more',
  limitPlaceholder: 'Enter limit',
  tpinDigits: messages.tpin.fourDigits,
  methodsRequired: 'Choose at least one payment method',
  methodNotAllowed: (method: PaymentMethod) => `This link does not accept ${method} payments`,
  expiresAtInvalid: 'Expires At must be a date and time',
  expiresAtPast: 'Expires At must be in the future',
  currencyUnsupported: 'Only USD payment requests are supported',
  noSuccessful: 'No successful transactions found!',
  noFailed: 'No failed transactions found!',
  feeTooHigh: paymentMessages.feeTooHigh,
  copied: 'Payment link copied to clipboard',
  ownLink: 'You cannot pay your own link from the account it pays into',
  /** The receiving account is locked by an operator: the link takes no payments meanwhile. */
  ownerLocked: 'This payment link cannot take payments at the moment. Please contact the sender.',
  userMismatch: 'You can only pay from your own account',
  sourceTypeInvalid: "type must be 'Link-payment'",
  /** List-page cells (section 2). */
  statusActive: 'Active',
  statusDisabled: 'Disable',
  amountCustom: 'Custom',
  unlimited: 'Un-limited',
  remainingTimes: (n: number) => `${n} Times`,
  notAvailable: 'N/A',
} as const;
const m = paymentRequestMessages;

export const paymentMethod = z.enum(PAYMENT_METHODS, { error: `Payment methods are ${PAYMENT_METHODS.join(' and ')}` });
export const amountType = z.enum(AMOUNT_TYPES, { error: `Amount type is ${AMOUNT_TYPES.join(' or ')}` });
export const paymentRequestStatus = z.enum(PAYMENT_REQUEST_STATUSES, { error: `status is ${PAYMENT_REQUEST_STATUSES.join(' or ')}` });

const text = (label: string, max = 200) => z.string({ error: requiredText(label) }).trim().min(1, requiredText(label)).max(max, `${label} is too long`);

/** An optional text the spec's client may send empty or null; empty is "not given". */
export const optionalText = (label: string, max = 200) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long`)
    .nullish()
    .transform((value) => (value ? value : undefined));

/** A raw amount field (text or number) the body parses only when the amount type needs it. */
const looseAmount = z.union([z.string(), z.number()]).nullish();

/** A whole count given as a number or digits text ("3"). */
const countValue = z.union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)]);

const amountOf = (label: string) => amountCents(requiredText(label), m.amountInvalid);

/** Parses an amount field with the shared schema, reporting its issues at `path`. */
function parseAmountField(value: unknown, label: string, path: (string | number)[], ctx: z.RefinementCtx, minimum = 1): Cents | null {
  const parsed = amountOf(label).safeParse(value ?? '');
  if (parsed.success && parsed.data < minimum) {
    ctx.addIssue({ code: 'custom', path, message: paymentMessages.amountBelowMinimum });
    return null;
  }
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path, message: issue.message });
  return null;
}

/**
 * POST /v1/payment-request/create (the spec's body, plus an optional expiresAt).
 * A fixed link needs amount.value; a customer-choosen one needs minimumAmount ≤ maximumAmount
 * (the fields of the other type are ignored, never stored). useLimit (≥ 1) is needed only when
 * isUseLimit is true. Amounts leave the schema as integer cents.
 */
export const createPaymentRequestBody = z
  .object({
    paymentPurpose: text(paymentRequestLabels.paymentPurpose, 500),
    userId: z.string().max(100).optional(),
    tpin: tpinValue,
    accountNumber: text(paymentRequestLabels.accountNumber, 40),
    customerName: optionalText(paymentRequestLabels.customerName),
    amount: z
      .object({
        type: amountType,
        currency: z.enum(CURRENCIES, { error: m.currencyUnsupported }).default('USD'),
        value: looseAmount,
      })
      .strict(),
    minimumAmount: looseAmount,
    maximumAmount: looseAmount,
    isUseLimit: z.boolean({ error: requiredText(paymentRequestLabels.isUseLimit) }),
    useLimit: z.union([z.number(), z.string()]).nullish(),
    reference: text(paymentRequestLabels.reference, 200),
    customerEmail: z
      .string()
      .trim()
      .max(320)
      .nullish()
      .transform((value) => (value ? value : undefined))
      .pipe(z.email({ error: m.emailInvalid }).optional()),
    customerPhone: optionalText(paymentRequestLabels.customerPhone, 40),
    paymentMethods: z
      .array(paymentMethod, { error: m.methodsRequired })
      .min(1, m.methodsRequired)
      .max(10, m.methodsRequired)
      .transform((methods) => [...new Set(methods)]),
    expiresAt: z
      .iso.datetime({ offset: true, error: m.expiresAtInvalid })
      .nullish()
      .refine((value) => !value || Date.parse(value) > Date.now(), m.expiresAtPast),
  })
  .strict()
  .transform((body, ctx) => {
    let value: Cents | null = null;
    let minimumAmount: Cents | null = null;
    let maximumAmount: Cents | null = null;
    if (body.amount.type === 'fixed') {
      value = parseAmountField(body.amount.value, paymentRequestLabels.amount, ['amount', 'value'], ctx, MIN_PAYMENT_CENTS);
    } else {
      minimumAmount = parseAmountField(body.minimumAmount, paymentRequestLabels.minimumAmount, ['minimumAmount'], ctx, MIN_PAYMENT_CENTS);
      maximumAmount = parseAmountField(body.maximumAmount, paymentRequestLabels.maximumAmount, ['maximumAmount'], ctx);
      if (minimumAmount !== null && maximumAmount !== null && minimumAmount > maximumAmount) {
        ctx.addIssue({ code: 'custom', path: ['minimumAmount'], message: m.minimumAboveMaximum });
      }
    }
    let useLimit: number | null = null;
    if (body.isUseLimit) {
      const parsed = countValue.safeParse(body.useLimit);
      if (body.useLimit === undefined || body.useLimit === null || body.useLimit === '') {
        ctx.addIssue({ code: 'custom', path: ['useLimit'], message: m.useLimitRequired });
      } else if (!parsed.success || !Number.isSafeInteger(parsed.data) || parsed.data < 1 || parsed.data > 1_000_000) {
        ctx.addIssue({ code: 'custom', path: ['useLimit'], message: m.useLimitInvalid });
      } else {
        useLimit = parsed.data;
      }
    }
    return {
      ...body,
      amount: { type: body.amount.type, currency: body.amount.currency, value },
      minimumAmount,
      maximumAmount,
      useLimit,
      expiresAt: body.expiresAt ?? null,
    };
  });
export type CreatePaymentRequestInput = z.input<typeof createPaymentRequestBody>;
export type CreatePaymentRequestBody = z.output<typeof createPaymentRequestBody>;

/** The create answer's data: the new link's public id (the spec's data.pRequestURLId). */
export const createPaymentRequestAnswer = z.object({
  _id: z.string(),
  pRequestURLId: z.string(),
  pRequestURL: z.string().describe('The public pay page: PUBLIC_URL/payment-request/{pRequestURLId}'),
});
export type CreatePaymentRequestAnswer = z.infer<typeof createPaymentRequestAnswer>;

const linkAmount = z.object({
  type: amountType,
  currency: z.string(),
  value: z.number().nullable().describe('Major units; null for customer-choosen'),
});

/**
 * A link as its owner sees it. `useLimit` is the REMAINING number of uses (null when the link
 * has no limit); `transactions` is the COUNT of successful payments (their list is
 * GET /v1/payment/payment-request/{id}); `paymentErrors` are the failed attempts, newest first.
 */
export const paymentRequestView = z.object({
  _id: z.string(),
  pRequestURL: z.string(),
  pRequestURLId: z.string(),
  status: paymentRequestStatus,
  accountNumber: z.string(),
  paymentPurpose: z.string(),
  customerName: z.string().nullable(),
  customerEmail: z.string().nullable(),
  customerPhone: z.string().nullable(),
  reference: z.string(),
  amount: linkAmount,
  minimumAmount: z.number().nullable(),
  maximumAmount: z.number().nullable(),
  isUseLimit: z.boolean(),
  useLimit: z.number().int().nullable().describe('Remaining uses; null when the link has no limit'),
  paymentMethods: z.array(paymentMethod),
  transactions: z.number().int().describe('How many successful payments the link has taken'),
  paymentErrors: z.array(paymentErrorView),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  ...refundCounterFields,
});
export type PaymentRequestView = z.infer<typeof paymentRequestView>;

/**
 * GET /v1/payment-request/link/{pRequestURLId} (public): only what the pay page needs. The
 * page decides its state from status, limitReached and expired.
 */
export const publicPaymentRequestView = z.object({
  pRequestURLId: z.string(),
  status: paymentRequestStatus,
  paymentPurpose: z.string(),
  reference: z.string(),
  ownerName: z.string().describe("The receiving account's business name, or its holder's name"),
  amount: linkAmount,
  minimumAmount: z.number().nullable(),
  maximumAmount: z.number().nullable(),
  paymentMethods: z.array(paymentMethod),
  isUseLimit: z.boolean(),
  limitReached: z.boolean().describe('The limit is on and no use remains'),
  expired: z.boolean(),
  expiresAt: z.string().nullable(),
});
export type PublicPaymentRequestView = z.infer<typeof publicPaymentRequestView>;

export const paymentRequestIdParams = z.object({ id: z.string().min(1).max(100) });
export const paymentRequestAccountParams = z.object({ accountNumber: z.string().min(1).max(40) });
export const pRequestURLIdParams = z.object({ pRequestURLId: z.string().min(1).max(100) });

/** The most links one page of the owner's list answers. */
export const PAYMENT_REQUEST_PAGE_MAX = 100;
/**
 * GET /v1/payment-request/account/{accountNumber}, paged by keyset: `limit` links (without it,
 * the spec's whole list up to 500), `cursor` the `_id` of the last link already shown; the
 * answer then holds the older ones. An empty page is the end.
 */
export const paymentRequestListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAYMENT_REQUEST_PAGE_MAX).optional(),
  cursor: z.uuid().optional(),
});
export type PaymentRequestListQuery = z.infer<typeof paymentRequestListQuery>;

/** GET /v1/payment-request/account/{accountNumber}/summary: the list page's counters over every link, counted by the database. */
export const paymentRequestCounters = z.object({
  /** Total Request: every link of the account. */
  total: z.number().int(),
  /** Active Request: the links that are on (status active). */
  active: z.number().int(),
  /** Total Payments: the payments made through the account's links. */
  payments: z.number().int(),
  /** Total Refund: the succeeded refunds of those payments, and their sum. */
  ...refundCounterFields,
});
export type PaymentRequestCounters = z.infer<typeof paymentRequestCounters>;

/** The owner's list (one page of it). */
export const paymentRequestList = z.array(paymentRequestView);

/** PATCH /v1/payment-request/update/{id}. */
export const updatePaymentRequestStatusBody = z.object({ status: paymentRequestStatus }).strict();
export type UpdatePaymentRequestStatusBody = z.infer<typeof updatePaymentRequestStatusBody>;

const limitCount = z.union([z.number(), z.string().trim()], { error: m.limitInvalid }).transform((value, ctx) => {
  const parsed = countValue.safeParse(value);
  if (!parsed.success || !Number.isSafeInteger(parsed.data) || parsed.data < 0 || parsed.data > 1_000_000) {
    ctx.addIssue({ code: 'custom', message: m.limitInvalid });
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * PATCH /v1/payment-request/limit/update/{id}: {useLimit} sets the remaining uses of a limited
 * link; {isUseLimit: true, useLimit} turns the limit on (section 4); {isUseLimit: false} turns
 * it off (useLimit then ignored).
 */
export const updatePaymentRequestLimitBody = z
  .object({ isUseLimit: z.boolean().optional(), useLimit: limitCount.optional() })
  .strict()
  .superRefine((body, ctx) => {
    if (body.isUseLimit !== false && body.useLimit === undefined) ctx.addIssue({ code: 'custom', path: ['useLimit'], message: m.useLimitRequired });
  });
export type UpdatePaymentRequestLimitInput = z.input<typeof updatePaymentRequestLimitBody>;
export type UpdatePaymentRequestLimitBody = z.output<typeof updatePaymentRequestLimitBody>;

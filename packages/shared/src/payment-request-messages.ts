import type { AMOUNT_TYPES, Currency, PAYMENT_METHODS, PAYMENT_REQUEST_STATUSES } from './constants.ts';
import { formatMoney, majorToCents, parseAmount, type Cents } from './money.ts';
import { payerMessages } from './payer-messages.ts';

/*
 * Payment-request links' messages and the public pay page's field rules, in a module of their
 * own without zod: the pay page imports them and must not download the contracts
 * (contracts/payment-requests.ts builds its schemas from them).
 */

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type AmountType = (typeof AMOUNT_TYPES)[number];
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

export const requiredText = (label: string) => `${label} is required`;

/**
 * The public pay page's texts and its fields' messages (the spec's are exact). The owner's
 * pages and the API use them too, through `paymentRequestMessages` in the contract, which
 * adds the rest; this part alone is what a paying visitor downloads.
 */
export const linkPayMessages = {
  notFound: 'Payment request not found',
  disabled: 'Payment Request Disabled!',
  disabledHint: 'This payment link is inactive. Please contact the sender or support.',
  limitExceeded: 'Limit Exceeded!',
  limitExceededHint: 'Payment denied: link reached limit...',
  expired: 'Payment Link Expired!',
  expiredHint: 'This payment link no longer accepts payments. Ask the sender for a new link.',
  paid: 'Payment Successful!',
  amountRequired: 'Please enter amount',
  amountDigits: 'Use only digits!',
  amountInvalid: 'Enter an amount greater than 0 with at most two decimals',
  /** A custom amount outside the link's range (form and API). */
  amountOutOfRange: (minimum: Cents, maximum: Cents, currency: Currency = 'USD') =>
    `Amount must be between ${formatMoney(minimum, currency)} and ${formatMoney(maximum, currency)}`,
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  unexpected: payerMessages.unexpected,
} as const;

const m = linkPayMessages;

/** Digits and at most one decimal point: what a typed amount may hold ('Use only digits!'). */
export const AMOUNT_DIGITS = /^\d*\.?\d*$/;

/** A loose e-mail shape for the browser; the server checks the address fully. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The public pay page's amount rule (section 5) for one link: 'Please enter amount', 'Use
 * only digits!', a valid amount, and for a custom-amount link its minimum–maximum range.
 * Answers the message of the first broken rule, or undefined.
 */
export function linkAmountProblem(
  value: string,
  link: { amount: { type: string }; minimumAmount: number | null; maximumAmount: number | null },
  currency: Currency = 'USD',
): string | undefined {
  const text = value.trim();
  if (text === '') return m.amountRequired;
  if (!AMOUNT_DIGITS.test(text)) return m.amountDigits;
  const parsed = parseAmount(text);
  if (!parsed.ok) return m.amountInvalid;
  if (link.amount.type !== 'customer-choosen' || link.minimumAmount === null || link.maximumAmount === null) return undefined;
  const minimum = majorToCents(link.minimumAmount);
  const maximum = majorToCents(link.maximumAmount);
  if (minimum === undefined || maximum === undefined) return undefined;
  return parsed.cents < minimum || parsed.cents > maximum ? m.amountOutOfRange(minimum, maximum, currency) : undefined;
}

/** The pay page's e-mail rule: 'Email is required', then an address shape. */
export function payerEmailProblem(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return m.emailRequired;
  if (text.length > 320 || !EMAIL_SHAPE.test(text)) return m.emailInvalid;
  return undefined;
}

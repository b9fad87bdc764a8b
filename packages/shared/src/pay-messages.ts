/*
 * The gateway's and the pay pages' messages, in a module of their own without zod: the
 * checkout imports them and must not download the contracts (contracts/payments.ts uses them).
 */

import { MIN_PAYMENT_CENTS } from './constants.ts';
import { asCents, formatMoney } from './money.ts';
import { payerMessages } from './payer-messages.ts';

/** Gateway and payment messages; the spec's are exact. */
export const paymentMessages = {
  created: 'Payment created',
  amountRequired: 'amount is required',
  amountInvalid: 'amount must be greater than 0 with at most two decimals, and at most 1,000,000,000',
  /** Below MIN_PAYMENT_CENTS (beyond the spec: issue 19). */
  amountBelowMinimum: `The minimum payment amount is ${formatMoney(asCents(MIN_PAYMENT_CENTS), 'USD')}`,
  /** The card attempt after MAX_DECLINES_PER_PAYMENT declines; kept on the payment too. */
  tooManyDeclines: 'Too many declined card attempts on this payment; it takes no more card attempts',
  /** MAX_DECLINES_PER_STORE_PER_HOUR declines at one store (or link) in the last hour. */
  tooManyStoreDeclines: 'Too many declined card attempts here in the last hour; try again later',
  currencyUnsupported: 'Only USD payments are supported',
  cancelUrlRequired: 'cancelUrl is required',
  storeCredentialsInvalid: 'Invalid storeId or storeKey',
  storePending: 'This store is waiting for approval; payments can be taken once it is Approved',
  storeRejected: (reason: string) => `This store was rejected and cannot take payments: ${reason}`,
  storeSuspended: 'This store is suspended and cannot take payments',
  orderIdTaken: (paymentId: string) => `orderId is already used by payment ${paymentId}`,
  notFound: 'Payment not found',
  alreadyPaid: 'This payment is already paid',
  attemptInProgress: 'A payment attempt for this payment is in progress; try again in a moment',
  feeTooHigh: 'Payment fee is too high',
  /** 502: the card processor did not answer (beyond the spec: issue 26). The day's reconciliation finds a charge it made anyway. */
  processorNoAnswer: 'The card network did not answer. If your card was charged, the charge will be released or your payment completed within a day; please try again later.',
  cardNumberInvalid: 'Your card number is invalid',
  brandUnsupported: 'Only visa and masterCard cards are accepted',
  brandMismatch: 'The card brand does not match the card number',
  expiryInvalid: 'Expiry must be MM/YY',
  expired: 'Your card has expired',
  typeCard: "type must be 'card'",
  noPayments: 'No Payments',
  noPaymentsHistory: 'No Payments History',
  noFailedAttempt: 'No failed attempt found!',
  unsuccess: 'Unsuccess Payment',
  ...payerMessages,
} as const;

import { z } from 'zod';
import { CURRENCIES, TPIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { amountCents } from '../money-schema.ts';
import { accountIdentity } from './accounts.ts';
import { currencyCode, majorUnits } from './common.ts';
import { withExample } from '../contract-examples.ts';
import { stepUpCodeField } from './step-up.ts';

export const transferMessages = {
  currencyRequired: 'Currency is required!',
  amountRequired: 'Amount is required!',
  amountInvalid: 'Enter an amount greater than 0 with at most two decimals',
  tpinRequired: messages.tpin.required,
  tpinDigits: messages.tpin.fourDigits,
  success: 'Fund transfer successfull',
  sameAccount: 'You cannot transfer to the same account',
  recipientNotFound: 'Recipient account not found',
  currencyUnsupported: 'Only USD transfers are supported',
  searchTooShort: 'Type at least 3 characters to search',
  searchDailyCap: "You have reached today's limit of recipient searches. Try again tomorrow.",
} as const;

/**
 * A 4-digit TPIN, as text or (the spec's client sends an integer) a number; a number is
 * padded back to four digits, so TPIN 0123 sent as 123 still matches.
 */
export const tpinValue = z.union(
  [
    // The example sits on the text form: a transformed branch's examples describe its output, not what is sent.
    withExample(z.string().trim().min(1, messages.tpin.required).regex(/^\d{4}$/, messages.tpin.fourDigits), '4826'),
    z
      .number()
      .int(messages.tpin.fourDigits)
      .min(0, messages.tpin.fourDigits)
      .max(10 ** TPIN_LENGTH - 1, messages.tpin.fourDigits)
      .transform((n) => String(n).padStart(TPIN_LENGTH, '0')),
  ],
  { error: messages.tpin.required },
);

/** POST /v1/account/transfer_balance (the spec's body). */
export const transferBody = z
  .object({
    userId: z.string().optional(),
    debitAccountKey: z.string().trim().min(1, 'Sender account is required'),
    creditAccountKey: z.string().trim().min(1, 'Recipient account is required'),
    currency: z.enum(CURRENCIES, { error: transferMessages.currencyRequired }),
    /** Major units on the wire ("12.50" or 12.5); integer cents after parsing. */
    balance: amountCents(transferMessages.amountRequired, transferMessages.amountInvalid),
    tpin: tpinValue,
    stepUpCode: stepUpCodeField,
  })
  .strict();
/** The body as the server works with it (balance in cents). */
export type TransferBody = z.infer<typeof transferBody>;
/** The body as a client sends it (balance in major units). */
export type TransferInput = z.input<typeof transferBody>;

/** The 'Complete Transfer' form; its output carries the amount in cents, parsed once. */
export const transferForm = z.object({
  currency: z.enum(CURRENCIES, { error: transferMessages.currencyRequired }),
  amount: amountCents(transferMessages.amountRequired, transferMessages.amountInvalid),
  tpin: z.string().min(1, transferMessages.tpinRequired).max(TPIN_LENGTH, transferMessages.tpinDigits).regex(/^\d{4}$/, transferMessages.tpinDigits),
  /** Shown only after the server asked for it (403 step_up_required); checked by the form then. */
  stepUpCode: z.string().optional(),
});
export type TransferFormInput = z.input<typeof transferForm>;
export type TransferFormValues = z.output<typeof transferForm>;

/** GET /v1/account/search?query=&accountNumber= — accountNumber is the sender (left out of the results). */
export const recipientSearchQuery = z.object({
  query: z.string().trim().max(100).default(''),
  accountNumber: z.string().trim().max(40).optional().describe('The current (sending) account; it is left out of the results'),
});
export type RecipientSearchQueryInput = z.input<typeof recipientSearchQuery>;

/** GET /v1/recipients/{userName}: one account by its exact user name (case-insensitive). */
export const recipientParams = z.object({ userName: z.string().trim().min(1).max(100) });

/**
 * A possible recipient: only what a sender needs to recognise the account. In search results
 * the holder's name is masked ("Alice C."); the recent list and the look-up by user name (the
 * recipient the sender picked) give it in full.
 */
export const recipient = accountIdentity.extend({
  accountEmail: z.string().optional().describe('Only present when the query was this exact e-mail'),
  accountPhone: z.string().optional().describe('Only present when the query was this exact phone number'),
});
export type Recipient = z.infer<typeof recipient>;
export const recipientList = z.array(recipient);

/** POST /v1/account/transfer_balance answers this. */
export const transferResult = z.object({
  transactionId: z.string(),
  amount: majorUnits,
  currency: currencyCode,
  debitAccountKey: z.string(),
  creditAccountKey: z.string(),
  balance: majorUnits.describe("The sender's balance in this currency after the transfer, in major units"),
  transactionAt: z.string().describe('ISO 8601 time'),
});
export type TransferResult = z.infer<typeof transferResult>;

import { z } from 'zod';
import { CURRENCIES, TPIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { parseAmount } from '../money.ts';

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
} as const;

/** An amount in major units, as text or a JSON number; at most two decimals, above zero. */
export const moneyAmount = (requiredMessage: string, invalidMessage: string) =>
  z
    .union([z.string(), z.number()], { error: requiredMessage })
    .refine((value) => String(value).trim() !== '', requiredMessage)
    .refine((value) => String(value).trim() === '' || parseAmount(value).ok, invalidMessage);

/**
 * A 4-digit TPIN, as text or (the spec's client sends an integer) a number; a number is
 * padded back to four digits, so TPIN 0123 sent as 123 still matches.
 */
export const tpinValue = z.union(
  [
    z.string().trim().min(1, messages.tpin.required).regex(/^\d{4}$/, messages.tpin.fourDigits),
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
    balance: moneyAmount(transferMessages.amountRequired, transferMessages.amountInvalid),
    tpin: tpinValue,
  })
  .strict();
export type TransferBody = z.infer<typeof transferBody>;

/** The 'Complete Transfer' form. */
export const transferForm = z.object({
  currency: z.string().min(1, transferMessages.currencyRequired),
  amount: z
    .string()
    .trim()
    .min(1, transferMessages.amountRequired)
    .refine((value) => parseAmount(value).ok, transferMessages.amountInvalid),
  tpin: z.string().min(1, transferMessages.tpinRequired).max(TPIN_LENGTH, transferMessages.tpinDigits).regex(/^\d{4}$/, transferMessages.tpinDigits),
});
export type TransferForm = z.infer<typeof transferForm>;

export const recipientSearchQuery = z.object({ query: z.string().trim().max(100).default('') });

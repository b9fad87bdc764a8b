import { z } from 'zod';
import { CURRENCIES, FOUR_EYES_WITHDRAWAL_FROM_CENTS, WITHDRAW_COUNTRIES, WITHDRAW_STATUSES } from '../constants.ts';
import { messages } from '../messages.ts';
import { asCents, formatMoney, parseAmount } from '../money.ts';
import { amountCents } from '../money-schema.ts';
import { tpinValue } from './transfers.ts';
import { stepUpCodeField } from './step-up.ts';
import { withExample } from '../contract-examples.ts';

/*
 * Bank withdrawals: POST /v1/bank-withdraw/create (the spec's body), the holder's list, and
 * the operator routes that move a withdrawal through its lifecycle.
 */

export type WithdrawCountry = (typeof WITHDRAW_COUNTRIES)[number];
/** United States bank account types; the form shows them capitalised and sends them uppercased. */
export const US_BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export type WithdrawalStatus = (typeof WITHDRAW_STATUSES)[number];

/** The form's labels; '{label} is required' is built from them (document 2, section 5). */
export const withdrawLabels = {
  country: 'Country',
  bankName: 'Bank Name',
  branchName: 'Branch Name',
  accountType: 'Account Type',
  bankAccountNumber: 'Bank Account Number',
  routingNumber: 'Routing Number',
  accountHolderName: 'Account Holder Name',
  currency: 'Currency',
  amount: 'Amount',
  tpin: 'TPIN',
} as const;

const required = (field: keyof typeof withdrawLabels) => `${withdrawLabels[field]} is required`;

export const withdrawMessages = {
  pending: 'Your withdraw request is pending!',
  amountDigits: 'Use only digits and one decimal point',
  amountInvalid: 'Enter an amount greater than 0 with at most two decimals',
  bankAccountNumberFormat: 'Bank account number must be 4 to 20 digits',
  routingNumberFormat: 'Routing number must be 9 digits',
  routingNumberInvalid: 'This is not a valid US routing number',
  accountTypeInvalid: 'Account type must be Checking or Savings',
  countryInvalid: 'Country must be United States or Bangladesh',
  currencyInvalid: 'Only USD withdrawals are supported',
  reasonRequired: 'A reason is required to fail a withdrawal',
  notFound: 'Withdrawal not found',
  /** 409 for an operator move the withdrawal's current status does not allow. */
  wrongStatus: (status: string, action: string) => `This withdrawal is ${status}; it cannot be ${action}`,
  fourEyesRequired: `Completing a withdrawal of ${formatMoney(asCents(FOUR_EYES_WITHDRAWAL_FROM_CENTS), 'USD')} or more needs a second operator: ask for approval on the console`,
  completionRequested: 'Sent for approval: a second operator must approve this payout',
  completionAlreadyRequested: 'This withdrawal already waits for a second operator’s approval',
  /** 409: a payout request is open; it is decided (approved or refused) before the withdrawal can fail. */
  completionAwaitingDecision: 'This withdrawal’s payout waits for a second operator: refuse that request before failing it',
  processing: 'Withdrawal marked Processing',
  completed: 'Withdrawal marked Completed',
  failed: 'Withdrawal marked Failed; the money went back to the wallet',
  /** The owner's cancel of a Pending withdrawal (issue 20, item 12). */
  cancelled: 'Withdrawal cancelled; the money is back in your wallet',
} as const;

/** ABA routing numbers carry a check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number) as number[];
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** "12345678" -> "****5678": bank account numbers are shown masked everywhere but the form. */
export function maskBankAccountNumber(value: string): string {
  return `****${value.slice(-4)}`;
}

const text = (field: keyof typeof withdrawLabels, max = 100) =>
  z.string({ error: required(field) }).trim().min(1, required(field)).max(max, `${withdrawLabels[field]} is too long`);

/** An optional text the spec's client may send empty for the other country. */
const optionalText = z
  .string()
  .trim()
  .max(100)
  .nullish()
  .transform((value) => (value ? value : undefined));

/**
 * The rules both sides apply once the fields are present: branch name for Bangladesh only,
 * account type for the United States only, a routing number with a valid check digit in the US.
 */
function countryRules(
  value: { country: string; branchName?: string | undefined; accountType?: string | undefined; routingNumber: string },
  ctx: z.RefinementCtx,
): void {
  if (value.country === 'Bangladesh' && !value.branchName) {
    ctx.addIssue({ code: 'custom', path: ['branchName'], message: required('branchName') });
  }
  if (value.country === 'United States') {
    if (!value.accountType) ctx.addIssue({ code: 'custom', path: ['accountType'], message: required('accountType') });
    else if (!(US_BANK_ACCOUNT_TYPES as readonly string[]).includes(value.accountType.toUpperCase())) {
      ctx.addIssue({ code: 'custom', path: ['accountType'], message: withdrawMessages.accountTypeInvalid });
    }
    if (/^\d{9}$/.test(value.routingNumber) && !isValidAbaRoutingNumber(value.routingNumber)) {
      ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: withdrawMessages.routingNumberInvalid });
    }
  }
}

/**
 * POST /v1/bank-withdraw/create (the spec's body). The field for the other country
 * (branch name in the US, account type in Bangladesh) is ignored, so a client that keeps a
 * stale value after switching country is not refused; it is never stored.
 */
export const createWithdrawalBody = z
  .object({
    accountNumber: z.string({ error: 'Account number is required' }).trim().min(1, 'Account number is required').max(40),
    userId: z.string().optional(),
    tpin: tpinValue,
    stepUpCode: stepUpCodeField,
    country: z.enum(WITHDRAW_COUNTRIES, { error: withdrawMessages.countryInvalid }),
    bankName: text('bankName'),
    branchName: optionalText,
    accountType: optionalText,
    bankAccountNumber: withExample(text('bankAccountNumber').regex(/^\d{4,20}$/, withdrawMessages.bankAccountNumberFormat), '000123456789'),
    routingNumber: withExample(text('routingNumber').regex(/^\d{9}$/, withdrawMessages.routingNumberFormat), '021000021'),
    accountHolderName: text('accountHolderName'),
    currency: z.enum(CURRENCIES, { error: withdrawMessages.currencyInvalid }),
    amount: amountCents(required('amount'), withdrawMessages.amountInvalid),
  })
  .strict()
  .superRefine(countryRules)
  .transform((value) => ({
    ...value,
    branchName: value.country === 'Bangladesh' ? value.branchName : undefined,
    accountType: value.country === 'United States' ? value.accountType?.toUpperCase() : undefined,
  }));
export type CreateWithdrawalInput = z.input<typeof createWithdrawalBody>;
export type CreateWithdrawalBody = z.output<typeof createWithdrawalBody>;

/** The '/bank/withdraw/new' form: every field is text, with the spec's messages. */
export const withdrawForm = z
  .object({
    country: z.string().min(1, required('country')),
    bankName: z.string().trim().min(1, required('bankName')).max(100),
    branchName: z.string().trim().max(100),
    accountType: z.string(),
    bankAccountNumber: z.string().trim().min(1, required('bankAccountNumber')).regex(/^\d{4,20}$/, withdrawMessages.bankAccountNumberFormat),
    routingNumber: z.string().trim().min(1, required('routingNumber')).regex(/^\d{9}$/, withdrawMessages.routingNumberFormat),
    accountHolderName: z.string().trim().min(1, required('accountHolderName')).max(100),
    currency: z.string().min(1, required('currency')),
    amount: z
      .string()
      .trim()
      .min(1, required('amount'))
      .regex(/^\d*\.?\d*$/, withdrawMessages.amountDigits)
      .refine((value) => !/^\d*\.?\d*$/.test(value) || parseAmount(value).ok, withdrawMessages.amountInvalid),
    tpin: z.string().min(1, required('tpin')).regex(/^\d{4}$/, messages.tpin.fourDigits),
    /** Shown only after the server asked for it (403 step_up_required); checked by the form then. */
    stepUpCode: z.string().optional(),
  })
  .superRefine(countryRules);
export type WithdrawFormValues = z.infer<typeof withdrawForm>;

/** A withdrawal as its holder sees it (the spec's fields; the bank account number masked). */
export const withdrawalView = z.object({
  _id: z.string(),
  accountNumber: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(WITHDRAW_STATUSES),
  bankName: z.string(),
  country: z.string(),
  branchName: z.string().nullable(),
  accountType: z.string().nullable(),
  bankAccountNumber: z.string(),
  routingNumber: z.string(),
  accountHolderName: z.string(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WithdrawalView = z.infer<typeof withdrawalView>;

/** What an operator sees: the full bank account number (they make the payout) and the holder's account. */
export const operatorWithdrawalView = withdrawalView.extend({
  accountId: z.string(),
  accountHolder: z.string(),
});
export type OperatorWithdrawalView = z.infer<typeof operatorWithdrawalView>;

export const withdrawalAccountParams = z.object({ accountNumber: z.string().min(1).max(40) });
export const withdrawalIdParams = z.object({ id: z.uuid({ error: withdrawMessages.notFound }) });
export const operatorWithdrawalsQuery = z.object({ status: z.enum(WITHDRAW_STATUSES).optional() });
export const failWithdrawalBody = z
  .object({ reason: z.string({ error: withdrawMessages.reasonRequired }).trim().min(1, withdrawMessages.reasonRequired).max(500) })
  .strict();
export type FailWithdrawalBody = z.infer<typeof failWithdrawalBody>;

/** POST /v1/bank-withdraw/cancel/{id}: the owner's TPIN, as for asking for the withdrawal. */
export const cancelWithdrawalBody = z.object({ tpin: tpinValue }).strict();
export type CancelWithdrawalInput = z.input<typeof cancelWithdrawalBody>;

/** One step of a withdrawal's life, oldest first: the status it reached and when. */
export const withdrawalStatusStep = z.object({ status: z.enum(WITHDRAW_STATUSES), at: z.string().describe('ISO 8601 time') });
/** GET /v1/bank-withdraw/details/{id}: the holder's view with its status history. */
export const withdrawalDetails = withdrawalView.extend({ history: z.array(withdrawalStatusStep) });
export type WithdrawalDetails = z.infer<typeof withdrawalDetails>;

/** The most withdrawals one page of the holder's list answers. */
export const WITHDRAWAL_PAGE_MAX = 100;
/**
 * The holder's list, paged by keyset: `limit` rows (without it, the spec's whole list up to
 * 500), `cursor` the `_id` of the last withdrawal already shown; the answer then holds the
 * older ones. An empty page is the end.
 */
export const withdrawalListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(WITHDRAWAL_PAGE_MAX).optional(),
  cursor: z.uuid().optional(),
});

/** GET /v1/bank-withdraw/account/{accountNumber}/summary: the list page's counters over every withdrawal, counted by the database. */
export const withdrawalCounters = z.object({
  completed: z.number().int(),
  /** Pending and Processing: still on its way, as its yellow badge says. */
  pending: z.number().int(),
  total: z.number().int(),
  /** Failed only: a cancelled withdrawal did not fail (it counts in total). */
  failed: z.number().int(),
});
export type WithdrawalCounters = z.infer<typeof withdrawalCounters>;

/** The holder's list (one page of it). */
export const withdrawalList = z.array(withdrawalView);

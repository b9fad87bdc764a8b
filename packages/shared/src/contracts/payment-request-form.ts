import { z } from 'zod';
import { AMOUNT_TYPES, PAYMENT_METHODS } from '../constants.ts';
import { parseAmount } from '../money.ts';
import { AMOUNT_DIGITS, linkAmountProblem, payerEmailProblem, requiredText } from '../payment-request-messages.ts';
import { paymentRequestLabels, paymentRequestMessages as m, type CreatePaymentRequestInput, type PublicPaymentRequestView } from './payment-requests.ts';

/*
 * The payment-request web forms (react-hook-form: every field is text): the owner's
 * new-link form and the public pay page's amount and e-mail. Apart from the API's
 * contracts (contracts/payment-requests.ts) so each file stays small.
 */

const formAmount = (label: string) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') ctx.addIssue({ code: 'custom', message: requiredText(label) });
      else if (!AMOUNT_DIGITS.test(value)) ctx.addIssue({ code: 'custom', message: m.amountDigits });
      else if (!parseAmount(value).ok) ctx.addIssue({ code: 'custom', message: m.amountInvalid });
    });

/** The /payment-request/new form: the spec's fields and messages (section 5). */
export const paymentRequestForm = z
  .object({
    paymentPurpose: z.string().trim().min(1, requiredText(paymentRequestLabels.paymentPurpose)).max(500),
    reference: z.string().trim().min(1, requiredText(paymentRequestLabels.reference)).max(200),
    isUseLimit: z.enum(['yes', 'no'], { error: requiredText(paymentRequestLabels.isUseLimit) }),
    useLimit: z.string().trim(),
    amountType: z.enum(AMOUNT_TYPES, { error: requiredText(paymentRequestLabels.amountType) }),
    amount: z.string().trim(),
    minimumAmount: z.string().trim(),
    maximumAmount: z.string().trim(),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)).min(1, m.methodsRequired),
    customerName: z.string().trim().max(200),
    customerEmail: z.string().trim().max(320).refine((value) => value === '' || z.email().safeParse(value).success, m.emailInvalid),
    customerPhone: z.string().trim().max(40),
    /** A datetime-local value ("2026-12-01T18:00"), empty for no expiry. */
    expiresAt: z.string().trim().refine((value) => value === '' || Date.parse(value) > Date.now(), m.expiresAtPast),
    tpin: z.string().min(1, requiredText(paymentRequestLabels.tpin)).regex(/^\d{4}$/, m.tpinDigits),
  })
  .superRefine((form, ctx) => {
    const check = (field: 'amount' | 'minimumAmount' | 'maximumAmount') => {
      const result = formAmount(paymentRequestLabels[field]).safeParse(form[field]);
      for (const issue of result.error?.issues ?? []) ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      return result.success;
    };
    if (form.amountType === 'fixed') check('amount');
    if (form.amountType === 'customer-choosen') {
      // Both fields are checked (no short-circuit), so both messages show at once.
      const minimumOk = check('minimumAmount');
      const maximumOk = check('maximumAmount');
      const both = minimumOk && maximumOk;
      const min = parseAmount(form.minimumAmount);
      const max = parseAmount(form.maximumAmount);
      if (both && min.ok && max.ok && min.cents > max.cents) ctx.addIssue({ code: 'custom', path: ['minimumAmount'], message: m.minimumAboveMaximum });
    }
    if (form.isUseLimit === 'yes') {
      if (form.useLimit === '') ctx.addIssue({ code: 'custom', path: ['useLimit'], message: m.useLimitRequired });
      else if (!/^\d+$/.test(form.useLimit) || Number(form.useLimit) < 1) ctx.addIssue({ code: 'custom', path: ['useLimit'], message: m.useLimitInvalid });
    }
  });
export type PaymentRequestFormInput = z.input<typeof paymentRequestForm>;

/** The new-request form's starting values. */
export const paymentRequestFormDefaults: PaymentRequestFormInput = {
  paymentPurpose: '',
  reference: '',
  isUseLimit: 'no',
  useLimit: '',
  amountType: 'fixed',
  amount: '',
  minimumAmount: '',
  maximumAmount: '',
  paymentMethods: ['Card', 'Kestrel'],
  customerName: '',
  customerEmail: '',
  customerPhone: '',
  expiresAt: '',
  tpin: '',
};

/**
 * A valid new-request form → the create body. expiresAt (a datetime-local value, read in the
 * browser's time zone) is sent as an ISO instant.
 */
export function paymentRequestFormToBody(form: PaymentRequestFormInput, owner: { userId: string; accountNumber: string }): CreatePaymentRequestInput {
  const fixed = form.amountType === 'fixed';
  return {
    paymentPurpose: form.paymentPurpose.trim(),
    userId: owner.userId,
    tpin: form.tpin,
    accountNumber: owner.accountNumber,
    customerName: form.customerName.trim() || undefined,
    amount: { type: form.amountType, currency: 'USD', value: fixed ? form.amount.trim() : undefined },
    minimumAmount: fixed ? undefined : form.minimumAmount.trim(),
    maximumAmount: fixed ? undefined : form.maximumAmount.trim(),
    isUseLimit: form.isUseLimit === 'yes',
    useLimit: form.isUseLimit === 'yes' ? Number(form.useLimit) : undefined,
    reference: form.reference.trim(),
    customerEmail: form.customerEmail.trim() || undefined,
    customerPhone: form.customerPhone.trim() || undefined,
    paymentMethods: form.paymentMethods,
    expiresAt: form.expiresAt ? new Date(form.expiresAt).toISOString() : undefined,
  };
}

/** A text field checked by one of the pay page's plain rules (payment-request-messages.ts). */
const ruled = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

type LinkAmountRule = Pick<PublicPaymentRequestView, 'amount' | 'minimumAmount' | 'maximumAmount'>;

/**
 * The public pay page's amount and email (section 5): 'Please enter amount', 'Use only
 * digits!' (digits and one decimal point), 'Email is required'. For a custom-amount link use
 * `paymentRequestAmountFormFor(link)`, which also checks the link's range. The rules
 * themselves are plain functions, so the pay page checks the same without zod.
 */
export const paymentRequestAmountForm = paymentRequestAmountFormFor({ amount: { type: 'fixed', currency: 'USD', value: null }, minimumAmount: null, maximumAmount: null });
export type PaymentRequestAmountFormInput = z.input<typeof paymentRequestAmountForm>;

/** The amount form for one link: a custom amount must lie within the link's minimum and maximum. */
export function paymentRequestAmountFormFor(link: LinkAmountRule) {
  return z.object({ amount: ruled((value) => linkAmountProblem(value, link)), email: ruled(payerEmailProblem) });
}

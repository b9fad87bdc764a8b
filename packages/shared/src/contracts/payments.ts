import { z } from 'zod';
import { CARD_BRANDS, CARD_HOLDER_MAX_CHARS, CURRENCIES } from '../constants.ts';
import { paymentAmountCents } from '../money-schema.ts';
import { paymentMessages } from '../pay-messages.ts';
import { checkoutMessages } from '../payer-messages.ts';
import { refundCounterFields, refundSummaryFields } from './refunds.ts';
import { httpUrl } from './stores.ts';
import { withExample } from '../contract-examples.ts';
import { stepUpCodeField } from './step-up.ts';

/** An amount in major units (number or text), parsed exactly into cents once, here. */
const gatewayAmount = paymentAmountCents(paymentMessages.amountRequired, paymentMessages.amountInvalid);

const text = (name: string, max = 200) => z.string({ error: `${name} is required` }).trim().min(1, `${name} is required`).max(max);

/** POST /v1/payment/web-pay and /web-pay/redirect (the spec's body). */
export const webPayBody = z
  .object({
    orderId: text('orderId', 100),
    currency: z.enum(CURRENCIES, { error: paymentMessages.currencyUnsupported }),
    amount: gatewayAmount,
    customerName: text('customerName'),
    customerEmail: z.email({ error: 'customerEmail must be an e-mail address' }).max(320),
    customerPhone: text('customerPhone', 40),
    customerAddress: text('customerAddress', 500),
    productName: text('productName'),
    cancelUrl: httpUrl(paymentMessages.cancelUrlRequired),
    valueA: z.string().max(500).optional(),
  })
  .strict();
export type WebPayBody = z.infer<typeof webPayBody>;

/** The card fields every card payment sends. */
const cardFields = {
  type: z.literal('card', { error: paymentMessages.typeCard }),
  brand: z.enum(CARD_BRANDS, { error: paymentMessages.brandUnsupported }).optional(),
  number: z.string({ error: paymentMessages.cardNumberRequired }).trim().min(1, paymentMessages.cardNumberRequired).max(23),
  expiresIn: z.string({ error: paymentMessages.expiryRequired }).trim().min(1, paymentMessages.expiryRequired).max(7),
  cvc: withExample(z.string({ error: paymentMessages.cvcRequired }).trim().min(1, paymentMessages.cvcRequired).regex(/^\d{3}$/, paymentMessages.cvcInvalid), '123'),
};

export const billingInfo = z
  .object({
    name: z.string().trim().max(200).optional(),
    address: z
      .object({ country: z.string().trim().max(100).optional(), city: z.string().trim().max(100).optional(), zipCode: z.string().trim().max(20).optional() })
      .strict()
      .optional(),
    phone: z.string().trim().max(40).optional(),
  })
  .strict();

/** POST /v1/payment/web-pay/complete/direct: a web-pay body plus the card. */
export const directPayBody = webPayBody.extend({ ...cardFields, billingInfo: billingInfo.optional() }).strict();
export type DirectPayBody = z.infer<typeof directPayBody>;

/** POST /v1/payment/complete/{paymentId}: the checkout's card payment. */
export const completeCardBody = z
  .object({ accountKey: z.string().max(100).optional(), ...cardFields, billingInfo: billingInfo.optional(), cardHolderName: z.string().trim().max(CARD_HOLDER_MAX_CHARS).optional() })
  .strict();
export type CompleteCardBody = z.infer<typeof completeCardBody>;

export const paymentIdParams = z.object({ paymentId: z.string().min(1).max(100) });
export const paymentListBody = z.object({ accountEmail: z.string().trim().min(1, 'accountEmail is required').max(320) }).strict();

/** The list's status filter: success, initiate (no failed attempt yet) or failed (unpaid, every attempt failed). */
export const PAYMENT_LIST_STATUSES = ['success', 'initiate', 'failed'] as const;
export type PaymentListStatus = (typeof PAYMENT_LIST_STATUSES)[number];
/** The most payments one page answers. */
export const PAYMENT_PAGE_MAX = 100;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD');
/**
 * A page of a payments list (issue 20, item 11). `limit` payments (without it the spec's whole
 * list, up to 500), `cursor` the `paymentId` of the last one shown; `q` an order ID, customer
 * e-mail or payment ID (exact; e-mail in any case); `status`; `from`/`to` UTC days, both included.
 */
export const paymentListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAYMENT_PAGE_MAX).optional(),
  cursor: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().max(320).optional().transform((value) => value || undefined),
  status: z.enum(PAYMENT_LIST_STATUSES).optional(),
  from: day.optional(),
  to: day.optional(),
});
export type PaymentListQueryInput = z.input<typeof paymentListQuery>;

/** The payments list's counters over every payment of the account or store, counted by the database. */
export const paymentCounters = z.object({ all: z.number().int(), succeeded: z.number().int(), initiated: z.number().int(), failed: z.number().int(), ...refundCounterFields });
export type PaymentCounters = z.infer<typeof paymentCounters>;

export const webPayAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  redirectUrl: z.string().describe('The hosted checkout address for the customer: PUBLIC_URL/web-pay/{urlId}'),
  data: z.object({ paymentId: z.string(), urlId: z.string(), orderId: z.string(), amount: z.number(), currency: z.string(), paymentStatus: z.literal('initiate') }),
});
export type WebPayAnswer = z.infer<typeof webPayAnswer>;

export const paymentResult = z.object({
  paymentStatus: z.literal('success'),
  tnxId: z.string().nullable(),
  orderId: z.string(),
  currency: z.string(),
  amount: z.number(),
  paymentId: z.string(),
});
export type PaymentResult = z.infer<typeof paymentResult>;

export const completeAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  redirectUrl: z.string(),
  data: paymentResult,
});
export type CompleteAnswer = z.infer<typeof completeAnswer>;

export const paymentErrorView = z.object({
  errorMessage: z.string(),
  errorSource: z.object({ brand: z.string().nullable(), type: z.string().nullable(), number: z.string().nullable() }),
  errorAt: z.string(),
});

export const paymentView = z.object({
  _id: z.string(),
  paymentId: z.string(),
  paymentStatus: z.enum(['initiate', 'success']),
  paymentSourceType: z.string().nullable(),
  paymentSource: z
    .object({
      type: z.string(),
      brand: z.string(),
      number: z.string().describe('Masked: first 6 and last 4 digits'),
      expiresIn: z.string().nullable(),
      billingInfo: billingInfo.nullable(),
    })
    .nullable(),
  amount: z.number(),
  currency: z.string(),
  fee: z.object({ amount: z.number(), currency: z.string() }).nullable(),
  orderId: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  customerAddress: z.string(),
  productName: z.string(),
  cancelUrl: z.string(),
  valueA: z.string().nullable(),
  urlId: z.string(),
  transactionId: z.string().nullable(),
  paymentErrors: z.array(paymentErrorView),
  storeId: z.string(),
  storeName: z.string(),
  accountKey: z.string().describe("The store owner's account number"),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  ...refundSummaryFields,
});
export type PaymentView = z.infer<typeof paymentView>;

export type SandboxOutcome = 'succeeds' | 'no_answer' | 'card_declined' | 'insufficient_funds' | 'incorrect_cvc';

/**
 * The built-in sandbox processor's published test cards (the API, the README and the
 * Integration tab use this list). `refund: 'refused'`: the payment succeeds, and every refund
 * of it is refused by the processor (issue 23: the failure path of card refunds). `no_answer`:
 * the sandbox charges the card but its answer never reaches Kestrel, as in a network timeout
 * (issue 26: the charge the day's reconciliation finds "charged but not recorded").
 */
export const SANDBOX_TEST_CARDS: readonly { number: string; brand: 'visa' | 'masterCard'; outcome: SandboxOutcome; refund?: 'refused'; message: string }[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'succeeds', message: 'Payment succeeds' },
  { number: '5555555555554444', brand: 'masterCard', outcome: 'succeeds', message: 'Payment succeeds' },
  { number: '4000000000005126', brand: 'visa', outcome: 'succeeds', refund: 'refused', message: 'Payment succeeds; its refunds are refused' },
  { number: '4000000000000259', brand: 'visa', outcome: 'no_answer', message: 'The card is charged but the answer is lost: the payment fails (502) and reconciliation finds the charge' },
  { number: '4000000000000002', brand: 'visa', outcome: 'card_declined', message: 'Your card was declined.' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  { number: '4000000000000127', brand: 'visa', outcome: 'incorrect_cvc', message: "Your card's security code is incorrect." },
];
export const SANDBOX_UNKNOWN_CARD_MESSAGE = 'Your card was declined. The sandbox accepts only its published test cards.';

export const urlIdParams = z.object({ urlId: z.string().min(1).max(100) });

/**
 * GET /v1/payment/{urlId}: what the hosted checkout shows and nothing more (the urlId is
 * the capability; no customer data, no store key). redirectUrl is the store's signed return
 * address once the payment is paid, else null.
 */
export const checkoutView = z.object({
  paymentId: z.string(),
  storeName: z.string(),
  storeLogo: z.string().describe('Address of the store logo'),
  amount: z.number(),
  currency: z.string(),
  paymentStatus: z.enum(['initiate', 'success']),
  cancelUrl: z.string(),
  redirectUrl: z.string().nullable(),
  productName: z.string().describe('What the shopper is buying, as the store sent it'),
  orderId: z.string().describe("The store's order ID"),
  transactionId: z.string().nullable().describe('Once paid: the ledger transaction ID, for the receipt'),
  paidAt: z.string().nullable().describe('Once paid: ISO 8601 time'),
  paymentSource: z
    .object({ type: z.string(), brand: z.string(), number: z.string().describe('Masked: first 6 and last 4 digits of a card, last 4 of a wallet') })
    .nullable()
    .describe('Once paid: how, for the receipt'),
});
export type CheckoutView = z.infer<typeof checkoutView>;

/** A wallet TPIN as the checkout sends it: 4 to 6 digits (the spec's pay pattern). */
export const payTpin = z.union([z.string(), z.number().int().nonnegative()], { error: checkoutMessages.tpinRequired }).transform((value, context) => {
  const text = String(value).trim();
  if (text.length === 0) context.addIssue({ code: 'custom', message: checkoutMessages.tpinRequired });
  else if (!/^\d{4,6}$/.test(text)) context.addIssue({ code: 'custom', message: checkoutMessages.tpinInvalid });
  return text;
});

/** POST /v1/payment/complete/kestrel/{paymentId}: pay from one of the caller's wallets. */
export const kestrelPayBody = z
  .object({
    userId: z.string().max(100).optional(),
    accountNumber: z.string({ error: 'accountNumber is required' }).trim().min(1, 'accountNumber is required').max(100),
    tpin: payTpin,
    stepUpCode: stepUpCodeField,
  })
  .strict();
export type KestrelPayBody = z.infer<typeof kestrelPayBody>;

/**
 * The hosted card form (checkout and payment-request page). Its rules and the spec's messages
 * are in the web's CardForm: the pay pages validate without zod to stay small.
 */
export interface CardFormValues {
  number: string;
  expiresIn: string;
  cvc: string;
  cardHolderName: string;
}

/** The checkout's wallet form: an account and its TPIN (rules in the web's WalletPay). */
export interface WalletPayFormValues {
  accountNumber: string;
  tpin: string;
}

/** A payments list (one page of it). */
export const paymentList = z.array(paymentView);

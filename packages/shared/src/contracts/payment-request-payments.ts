import { z } from 'zod';
import { paymentAmountCents } from '../money-schema.ts';
import { paymentMessages } from '../pay-messages.ts';
import { billingInfo, completeCardBody, payTpin } from './payments.ts';
import { stepUpCodeField } from './step-up.ts';
import { optionalText, paymentRequestMessages as m } from './payment-requests.ts';
import { refundSummaryFields } from './refunds.ts';

/*
 * Paying a payment-request link (the public pay page's card form, a signed-in wallet
 * payment), the pay answer and the link payments' views; apart from the owner's side of
 * links (contracts/payment-requests.ts) so each file stays small.
 */

const payAmount = paymentAmountCents(m.amountRequired, m.amountInvalid);
const payerEmail = z.string({ error: m.emailRequired }).trim().min(1, m.emailRequired).max(320).pipe(z.email({ error: m.emailInvalid }));

/** POST /v1/payment-request/card/complete-payment/{pRequestURLId} (the spec's body). */
export const payPaymentRequestByCardBody = z
  .object({
    email: payerEmail,
    phone: optionalText('phone', 40),
    reference: optionalText('reference', 200),
    amount: payAmount,
    type: completeCardBody.shape.type,
    brand: completeCardBody.shape.brand,
    number: completeCardBody.shape.number,
    expiresIn: completeCardBody.shape.expiresIn,
    cvc: completeCardBody.shape.cvc,
    billingInfo: billingInfo.optional(),
    cardHolderName: z.string({ error: paymentMessages.cardHolderRequired }).trim().min(1, paymentMessages.cardHolderRequired).max(200),
    countryOrRegion: optionalText('countryOrRegion', 100),
  })
  .strict();
export type PayPaymentRequestByCardInput = z.input<typeof payPaymentRequestByCardBody>;
export type PayPaymentRequestByCardBody = z.output<typeof payPaymentRequestByCardBody>;

/** POST /v1/payment-request/kestrel/complete-payment/{pRequestURLId} (signed in; the spec's body). */
export const payPaymentRequestByKestrelBody = z
  .object({
    email: payerEmail.optional(),
    reference: optionalText('reference', 200),
    amount: payAmount,
    userId: z.string().max(100).optional(),
    accountNumber: z.string({ error: 'accountNumber is required' }).trim().min(1, 'accountNumber is required').max(100),
    tpin: payTpin,
    stepUpCode: stepUpCodeField,
  })
  .strict();
export type PayPaymentRequestByKestrelInput = z.input<typeof payPaymentRequestByKestrelBody>;
export type PayPaymentRequestByKestrelBody = z.output<typeof payPaymentRequestByKestrelBody>;

/** Both pay routes' answer. */
export const paymentRequestPayAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    transactionId: z.string(),
    amount: z.number(),
    currency: z.string(),
    paymentId: z.string().describe('The link payment id'),
  }),
});
export type PaymentRequestPayAnswer = z.infer<typeof paymentRequestPayAnswer>;

/** One payment made through a link (the details page's 'Successed' tab and the source list). */
export const linkPaymentView = z.object({
  id: z.string(),
  pRequestId: z.string(),
  pRequestURLId: z.string(),
  amount: z.number(),
  currency: z.string(),
  fee: z.number(),
  source: z.object({
    type: z.enum(['card', 'wallet']),
    brand: z.string().nullable().describe('Card brand; null for a wallet'),
    number: z.string().describe('Card: first 6 and last 4 digits; wallet: the payer account, masked'),
  }),
  payerEmail: z.string().nullable(),
  reference: z.string().nullable().describe("The payer's reference, if given"),
  transactionId: z.string(),
  createdAt: z.string(),
  ...refundSummaryFields,
});
export type LinkPaymentView = z.infer<typeof linkPaymentView>;

/** GET /v1/payment/source?type=Link-payment[&accountNumber=…]. */
export const LINK_PAYMENT_SOURCE = 'Link-payment';
export const linkPaymentSourceQuery = z.object({
  type: z.literal(LINK_PAYMENT_SOURCE, { error: m.sourceTypeInvalid }),
  accountNumber: z.string().min(1).max(40).optional(),
});
export type LinkPaymentSourceQuery = z.infer<typeof linkPaymentSourceQuery>;

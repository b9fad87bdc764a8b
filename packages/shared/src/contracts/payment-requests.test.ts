import { describe, expect, it } from 'vitest';
import { paymentRequestAmountForm, paymentRequestAmountFormFor, paymentRequestForm, paymentRequestFormDefaults, paymentRequestFormToBody } from './payment-request-form.ts';
import { createPaymentRequestBody, paymentRequestMessages as m, updatePaymentRequestLimitBody } from './payment-requests.ts';
import { asCents } from '../money.ts';

/** The first message of each field, as a form shows it. */
function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) messages[issue.path.join('.')] ??= issue.message;
  return messages;
}

const base = {
  paymentPurpose: 'Lessons',
  tpin: '0123',
  accountNumber: '10000012',
  isUseLimit: false,
  reference: 'R-1',
  paymentMethods: ['Card'],
};

describe('createPaymentRequestBody', () => {
  it('keeps only the amount fields of the chosen type, in cents', () => {
    const fixed = createPaymentRequestBody.parse({ ...base, amount: { type: 'fixed', currency: 'USD', value: '12.5' }, minimumAmount: '', maximumAmount: 3, useLimit: '' });
    expect(fixed).toMatchObject({ amount: { type: 'fixed', currency: 'USD', value: 1250 }, minimumAmount: null, maximumAmount: null, useLimit: null, expiresAt: null });
    const custom = createPaymentRequestBody.parse({
      ...base,
      amount: { type: 'customer-choosen', currency: 'USD', value: 99 },
      minimumAmount: 1,
      maximumAmount: '1.5',
      isUseLimit: true,
      useLimit: '2',
      paymentMethods: ['Kestrel', 'Card', 'Kestrel'],
    });
    expect(custom).toMatchObject({ amount: { value: null }, minimumAmount: 100, maximumAmount: 150, useLimit: 2, paymentMethods: ['Kestrel', 'Card'] });
  });

  it('turns a 4-digit TPIN sent as a number back into its digits', () => {
    expect(createPaymentRequestBody.parse({ ...base, tpin: 123, amount: { type: 'fixed', currency: 'USD', value: 1 } }).tpin).toBe('0123');
  });
});

describe('paymentRequestForm (/payment-request/new)', () => {
  it("gives the spec's messages", () => {
    const empty = messagesOf(paymentRequestForm.safeParse({ ...paymentRequestFormDefaults, isUseLimit: 'yes', paymentMethods: [] }));
    expect(empty).toMatchObject({
      paymentPurpose: 'Payment Purpose is required',
      reference: 'Reference is required',
      amount: 'Amount is required',
      useLimit: m.useLimitRequired,
      paymentMethods: m.methodsRequired,
      tpin: 'TPIN is required',
    });
    const custom = messagesOf(
      paymentRequestForm.safeParse({ ...paymentRequestFormDefaults, paymentPurpose: 'x', reference: 'y', tpin: '12', amountType: 'customer-choosen', minimumAmount: '9', maximumAmount: '1a' }),
    );
    expect(custom).toEqual({ tpin: m.tpinDigits, maximumAmount: m.amountDigits });
    const reversed = messagesOf(
      paymentRequestForm.safeParse({ ...paymentRequestFormDefaults, paymentPurpose: 'x', reference: 'y', tpin: '1234', amountType: 'customer-choosen', minimumAmount: '9', maximumAmount: '1' }),
    );
    expect(reversed).toEqual({ minimumAmount: m.minimumAboveMaximum });
  });

  it('turns a valid form into a body the API accepts', () => {
    const form = paymentRequestForm.parse({
      ...paymentRequestFormDefaults,
      paymentPurpose: ' Lessons ',
      reference: 'R-1',
      amount: '20',
      isUseLimit: 'yes',
      useLimit: '3',
      customerEmail: 'c@example.test',
      expiresAt: '2999-01-01T10:00',
      tpin: '4826',
    });
    const body = paymentRequestFormToBody(form, { userId: 'u1', accountNumber: '10000012' });
    const parsed = createPaymentRequestBody.parse(body);
    expect(parsed).toMatchObject({ paymentPurpose: 'Lessons', amount: { type: 'fixed', value: 2000 }, isUseLimit: true, useLimit: 3, customerEmail: 'c@example.test', customerName: undefined });
    expect(parsed.expiresAt).toBe(new Date('2999-01-01T10:00').toISOString());
  });
});

describe('the pay page amount form', () => {
  it("gives the spec's messages and checks a custom link's range", () => {
    expect(messagesOf(paymentRequestAmountForm.safeParse({ amount: '', email: '' }))).toEqual({ amount: m.amountRequired, email: m.emailRequired });
    expect(messagesOf(paymentRequestAmountForm.safeParse({ amount: '1,5', email: 'a@b.co' }))).toEqual({ amount: m.amountDigits });
    const ranged = paymentRequestAmountFormFor({ amount: { type: 'customer-choosen', currency: 'USD', value: null }, minimumAmount: 5, maximumAmount: 50 });
    expect(messagesOf(ranged.safeParse({ amount: '50.01', email: 'a@b.co' }))).toEqual({ amount: m.amountOutOfRange(asCents(500), asCents(5000)) });
    expect(ranged.safeParse({ amount: '50', email: 'a@b.co' }).success).toBe(true);
  });
});

describe('updatePaymentRequestLimitBody', () => {
  it('takes a whole count of 0 or more, or turning the limit off', () => {
    expect(updatePaymentRequestLimitBody.parse({ useLimit: '0' })).toEqual({ useLimit: 0 });
    expect(updatePaymentRequestLimitBody.parse({ isUseLimit: false })).toEqual({ isUseLimit: false });
    expect(messagesOf(updatePaymentRequestLimitBody.safeParse({ useLimit: -1 }))).toEqual({ useLimit: m.limitInvalid });
    expect(messagesOf(updatePaymentRequestLimitBody.safeParse({ isUseLimit: true }))).toEqual({ useLimit: m.useLimitRequired });
  });
});

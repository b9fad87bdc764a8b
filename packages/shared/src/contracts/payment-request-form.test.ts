import { describe, expect, it } from 'vitest';
import { paymentRequestForm, paymentRequestFormDefaults } from './payment-request-form.ts';
import { paymentRequestLabels, paymentRequestMessages as m } from './payment-requests.ts';

/** The field → message map the form shows after a submit. */
function messagesOf(values: Partial<typeof paymentRequestFormDefaults>): Record<string, string> {
  const result = paymentRequestForm.safeParse({ ...paymentRequestFormDefaults, ...values });
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the new payment request form', () => {
  it('shows the minimum and the maximum amount messages together for an empty customer-choosen link', () => {
    const messages = messagesOf({ amountType: 'customer-choosen', paymentPurpose: 'Lesson', reference: 'R-1', tpin: '4826' });
    expect(messages).toEqual({
      minimumAmount: m.required(paymentRequestLabels.minimumAmount),
      maximumAmount: m.required(paymentRequestLabels.maximumAmount),
    });
  });

  it('says Use Limit is required when the limit is on and TPIN must be 4 digits', () => {
    const messages = messagesOf({ paymentPurpose: 'Lesson', reference: 'R-1', amount: '12', isUseLimit: 'yes', tpin: '48' });
    expect(messages).toEqual({ useLimit: m.useLimitRequired, tpin: m.tpinDigits });
  });
});

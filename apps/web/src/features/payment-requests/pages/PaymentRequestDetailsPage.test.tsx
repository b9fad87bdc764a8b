import { linkPaymentView, paymentRequestView } from '@kestrel/shared';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { refundFixture } from '../../../test/fixtures.ts';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { PaymentRequestDetailsPage } from './PaymentRequestDetailsPage.tsx';

describe("a payment link's payments: refunds", () => {
  beforeEach(signIn);

  const link = paymentRequestView.parse({
    _id: 'lr-1', pRequestURL: 'http://localhost/payment-request/u1', pRequestURLId: 'u1', status: 'active', accountNumber: 'A100', paymentPurpose: 'Bike service',
    customerName: null, customerEmail: null, customerPhone: null, reference: 'R-1', amount: { type: 'fixed', currency: 'USD', value: 40 }, minimumAmount: null,
    maximumAmount: null, isUseLimit: false, useLimit: null, paymentMethods: ['Card'], transactions: 1, paymentErrors: [], expiresAt: null,
    createdAt: '2026-11-20T10:00:00.000Z', refundCount: 0, refundedAmount: 0,
  });
  const linkPayment = linkPaymentView.parse({
    id: 'lp-1', pRequestId: 'lr-1', pRequestURLId: 'u1', amount: 40, currency: 'USD', fee: 0.8, source: { type: 'wallet', brand: null, number: '****7788' },
    payerEmail: 'payer@example.test', reference: null, transactionId: 'TX9', createdAt: '2026-11-21T09:00:00.000Z',
    refunds: [], amountRefunded: 0, amountRefundable: 40, refundState: null,
  });

  it('refunds a link payment from the Successed tab with the link account’s TPIN, then shows it refunded', async () => {
    let refunded = false;
    const calls = stubApi({
      'GET /v1/payment-request/lr-1': success(link),
      'GET /v1/payment/payment-request/lr-1': () =>
        success([refunded ? { ...linkPayment, refunds: [refundFixture({ paymentId: 'lp-1', amount: 40 })], amountRefunded: 40, amountRefundable: 0, refundState: 'refunded' } : linkPayment]),
      'POST /v1/payment/details/lp-1/refund': () => {
        refunded = true;
        return success(refundFixture({ paymentId: 'lp-1', amount: 40 }), 'Refund successful');
      },
    });
    const { user } = renderPage(<PaymentRequestDetailsPage />, { path: '/payment-request/details/lr-1', pattern: '/payment-request/details/:paymentRequestId' });
    const table = await screen.findByRole('table', { name: 'Successful payments, newest first' });
    await user.click(within(table).getByRole('button', { name: /^Refund US\$ 40\.00 of / }));
    const form = screen.getByRole('form', { name: 'Refund payment' });
    expect(within(form).getByText('A100')).toBeTruthy();
    expect((within(form).getByLabelText('Amount') as HTMLInputElement).value).toBe('40.00');
    await user.type(within(form).getByLabelText('TPIN'), '1234');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund successful')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/payment/details/lp-1/refund', { amount: '40.00', tpin: '1234' }]]);
    expect(await within(table).findByText('Refunded')).toBeTruthy();
    expect(within(table).queryByRole('button', { name: /^Refund / })).toBeNull();
  });
});

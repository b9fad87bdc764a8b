import { operatorPaymentView, type OperatorPaymentView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { refundFixture } from '../../../test/fixtures.ts';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { PaymentsPage } from './PaymentsPage.tsx';
import { fieldError } from '../../../test/form.ts';

const payment = (overrides: Partial<OperatorPaymentView> = {}) =>
  operatorPaymentView.parse({
    paymentId: 'pay-1',
    kind: 'gateway',
    paymentStatus: 'success',
    amount: 100,
    currency: 'USD',
    fee: 2,
    accountNumber: 'A100',
    storeName: 'Corner Shop',
    orderId: 'order-1',
    paidAt: '2026-11-20T10:01:00.000Z',
    refunds: [refundFixture()],
    amountRefunded: 30,
    amountRefundable: 70,
    refundState: 'partially_refunded',
    ...overrides,
  });

const render = () => renderPage(<PaymentsPage />, { path: '/ops/payments/pay-1', pattern: '/ops/payments/:paymentId' });

describe("the operator console's payment page: a refund on the customer's behalf", () => {
  beforeEach(signIn);

  it('needs a reason and at most what is left, and sends nothing until then', async () => {
    const calls = stubApi({ 'GET /v1/operator/payments/pay-1': success(payment()) });
    const { user } = render();
    const form = await screen.findByRole('form', { name: "Refund on the customer's behalf" });
    expect((within(form).getByLabelText('Amount') as HTMLInputElement).value).toBe('70.00');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(fieldError('Reason')).toBe('Reason is required'));
    await user.clear(within(form).getByLabelText('Amount'));
    await user.type(within(form).getByLabelText('Amount'), '70.01');
    await user.type(within(form).getByLabelText('Reason'), 'Customer called: parcel lost');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(fieldError('Amount')).toBe('The refund is more than what is left to refund (US$ 70.00)'));
    expect(fieldError('Reason')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('refunds with the reason and an Idempotency-Key, toasts it and shows the payment refunded in full', async () => {
    let refunded = false;
    const calls = stubApi({
      'GET /v1/operator/payments/pay-1': () =>
        success(refunded ? payment({ refunds: [refundFixture({ refundId: 'ref-2', amount: 70, initiatedBy: { kind: 'operator', name: 'Kestrel support' } }), refundFixture()], amountRefunded: 100, amountRefundable: 0, refundState: 'refunded' }) : payment()),
      'POST /v1/operator/payments/pay-1/refund': () => {
        refunded = true;
        return success(refundFixture({ refundId: 'ref-2', amount: 70 }), 'Refund successful');
      },
    });
    const { user } = render();
    const form = await screen.findByRole('form', { name: "Refund on the customer's behalf" });
    await user.type(within(form).getByLabelText('Reason'), 'Customer called: parcel lost');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund successful')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/operator/payments/pay-1/refund', { amount: '70.00', reason: 'Customer called: parcel lost' }]]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    expect(await screen.findByText('This payment is fully refunded.')).toBeTruthy();
    expect(screen.getByText('Refunded', { selector: 'span' })).toBeTruthy();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { refundMessages } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { paymentFixture, refundFixture } from '../../../test/fixtures.ts';
import { renderPage, signIn, stubApi, success, writes, type StubbedCall } from '../../../test/render.tsx';
import { PaymentDetailsPage } from '../pages/PaymentDetailsPage.tsx';
import { fieldError } from '../../../test/form.ts';

const path = '/payment/details/pay-1';
const refundPath = 'POST /v1/payment/details/pay-1/refund';

/** US$ 100.00 by card, US$ 30.00 of it refunded: US$ 70.00 left. */
const partlyRefunded = paymentFixture({ refunds: [refundFixture()], amountRefunded: 30, amountRefundable: 70, refundState: 'partially_refunded' });

function renderDetails(answers: Parameters<typeof stubApi>[0], payment = partlyRefunded): StubbedCall[] {
  return stubApi({ 'GET /v1/payment/paymentId/pay-1': success(payment), ...answers });
}

async function openForm(user: ReturnType<typeof renderPage>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Refund' }));
  return screen.getByRole('form', { name: 'Refund payment' });
}

describe('the payment details page: refunds', () => {
  beforeEach(signIn);

  it('shows "Partially refunded" beside success, what is refunded and left, and each refund with its fee, reason, who and status', async () => {
    renderDetails({});
    renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    expect(within(payment).getByText('success')).toBeTruthy();
    expect(within(payment).getByText('Partially refunded')).toBeTruthy();
    expect(within(payment).getByText('US$ 30.00')).toBeTruthy();
    expect(within(payment).getByText('(US$ 70.00 left)')).toBeTruthy();
    const refunds = screen.getByRole('region', { name: 'Refunds' });
    const row = within(within(refunds).getByRole('table')).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'US$ 30.00To card 424242******4242',
      'US$ 0.60',
      'Wrong size',
      'adaowner',
      expect.stringMatching(/^November 21st, 2026 /),
      'succeeded',
    ]);
  });

  it('offers no Refund for an unpaid payment, nor for one refunded in full (which says "Refunded")', async () => {
    renderDetails({}, paymentFixture({ paymentStatus: 'initiate', transactionId: null, paidAt: null, amountRefundable: 0 }));
    const first = renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    expect(await screen.findByRole('region', { name: 'Payment' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Refunds' })).toBeNull();
    first.unmount();

    renderDetails({}, paymentFixture({ refunds: [refundFixture({ amount: 100, fee: { amount: 2, currency: 'USD' } })], amountRefunded: 100, amountRefundable: 0, refundState: 'refunded' }));
    renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    expect(await screen.findByText('Refunded', { selector: 'span' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('opens the form with what is left as the amount, shows each message under its field and sends nothing', async () => {
    const calls = renderDetails({});
    const { user } = renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    const form = await openForm(user);
    expect(screen.queryByRole('button', { name: 'Refund' })).toBe(within(form).getByRole('button', { name: 'Refund' }));
    const amount = within(form).getByLabelText('Amount') as HTMLInputElement;
    expect(amount.value).toBe('70.00');
    expect(document.activeElement).toBe(amount);
    expect(within(form).getByText('Left to refund: US$ 70.00')).toBeTruthy();

    await user.clear(amount);
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(fieldError('Amount')).toBe('amount is required'));
    expect(fieldError('TPIN')).toBe('TPIN is required');

    await user.type(amount, '70.01');
    await user.type(within(form).getByLabelText('TPIN'), '12');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    // Every message at once: the TPIN's and the amount's, which is more than what is left.
    await waitFor(() => expect(fieldError('TPIN')).toBe('TPIN must be 4 digits'));
    expect(fieldError('Amount')).toBe('The refund is more than what is left to refund (US$ 70.00)');
    await user.clear(within(form).getByLabelText('TPIN'));
    await user.type(within(form).getByLabelText('TPIN'), '1234');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(fieldError('TPIN')).toBeNull());
    expect(fieldError('Amount')).toBe('The refund is more than what is left to refund (US$ 70.00)');

    // Only digits and one point reach the field; a third decimal is refused.
    await user.clear(amount);
    await user.type(amount, '1a0.0.05');
    expect(amount.value).toBe('10.005');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(fieldError('Amount')).toBe(refundMessages.amountInvalid));
    expect(writes(calls)).toEqual([]);

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Refund payment' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refund' })).toBeTruthy();
  });

  it('sends the refund once with an Idempotency-Key, toasts it, closes the form and reads the payment again', async () => {
    let refunded = false;
    const after = paymentFixture({
      refunds: [refundFixture({ refundId: 'ref-2', amount: 25, fee: { amount: 0.5, currency: 'USD' }, reason: 'Returned the bike' }), refundFixture()],
      amountRefunded: 55,
      amountRefundable: 45,
      refundState: 'partially_refunded',
    });
    const calls = stubApi({
      'GET /v1/payment/paymentId/pay-1': () => success(refunded ? after : partlyRefunded),
      [refundPath]: () => {
        refunded = true;
        return success(after.refunds[0], 'Refund successful');
      },
    });
    const { user } = renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    const form = await openForm(user);
    const amount = within(form).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '25');
    await user.type(within(form).getByLabelText('Reason (optional)'), '  Returned the bike ');
    await user.type(within(form).getByLabelText('TPIN'), '1234');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund successful')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/payment/details/pay-1/refund', { amount: '25.00', reason: 'Returned the bike', tpin: '1234' }]]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Refund payment' })).toBeNull());
    expect(await screen.findByText('(US$ 45.00 left)')).toBeTruthy();
    expect(within(screen.getByRole('table')).getByText('Returned the bike')).toBeTruthy();
  });

  it('shows the server’s refusal in the form and a toast, and empties a wrong TPIN', async () => {
    let answer = { status: 409, body: { status: 'error', error: "The account's available balance cannot cover this refund", code: 'refund_insufficient_balance' } };
    renderDetails({ [refundPath]: () => answer });
    const { user } = renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    const form = await openForm(user);
    await user.type(within(form).getByLabelText('TPIN'), '1234');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe("The account's available balance cannot cover this refund"));
    expect(screen.getAllByText("The account's available balance cannot cover this refund")).toHaveLength(2);
    expect((within(form).getByLabelText('TPIN') as HTMLInputElement).value).toBe('1234');

    answer = { status: 400, body: { status: 'error', error: 'Incorrect TPIN', code: 'tpin_incorrect' } };
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Incorrect TPIN'));
    await waitFor(() => expect((within(form).getByLabelText('TPIN') as HTMLInputElement).value).toBe(''));
    expect(document.activeElement).toBe(within(form).getByLabelText('TPIN'));
  });

  it('after an answer that never came, says sending again is safe and sends the same refund with the same key', async () => {
    let attempt = 0;
    const calls = renderDetails({
      [refundPath]: () => {
        attempt += 1;
        return attempt === 1
          ? { status: 503, body: { status: 'error', error: 'Kestrel is briefly unavailable. Please try again in a moment.', code: 'database_unavailable' } }
          : success(refundFixture({ refundId: 'ref-2', amount: 70 }), 'Refund successful');
      },
    });
    const { user } = renderPage(<PaymentDetailsPage />, { path, pattern: '/payment/details/:paymentId' });
    const form = await openForm(user);
    await user.type(within(form).getByLabelText('TPIN'), '1234');
    const submit = within(form).getByRole('button', { name: 'Refund' });
    await user.click(submit);
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Refund failed! Sending it again is safe: the payer is refunded once.'));
    await user.click(submit);
    expect(await screen.findByText('Refund successful')).toBeTruthy();
    const keys = calls.filter((call) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });
});

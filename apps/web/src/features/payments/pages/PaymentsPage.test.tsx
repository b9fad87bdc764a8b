import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { paymentFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { PaymentsPage } from './PaymentsPage.tsx';

const listPath = 'POST /v1/payment/account';
const countersPath = 'POST /v1/payment/account/summary';
const counters = success({ all: 3, succeeded: 1, initiated: 1, failed: 1, refundCount: 1, refundedAmount: 30 });

const counter = (label: string) => [...screen.getByRole('article', { name: label }).querySelectorAll('p')].map((p) => p.textContent).join(' | ');

describe('Payment History', () => {
  beforeEach(signIn);

  it('shows the counters, refunds with their sum, and each payment: amount as US$ with its status, order, customer, method and transaction', async () => {
    const calls = stubApi({
      [countersPath]: counters,
      [listPath]: success([
        paymentFixture({ amount: 1234.5, refunds: [], amountRefunded: 30, amountRefundable: 1204.5, refundState: 'partially_refunded' }),
        paymentFixture({
          _id: 'pay-2', paymentId: 'pay-2', paymentStatus: 'initiate', paymentSourceType: null, paymentSource: null, amount: 12, orderId: 'order-2',
          transactionId: null, paidAt: null, amountRefundable: 0,
        }),
        paymentFixture({
          _id: 'pay-3', paymentId: 'pay-3', paymentStatus: 'initiate', amount: 7.5, orderId: 'order-3', transactionId: null, paidAt: null, amountRefundable: 0,
          paymentErrors: [{ errorMessage: 'Card declined', errorSource: { brand: 'visa', type: 'card', number: '424242******0002' }, errorAt: '2026-11-20T10:00:00.000Z' }],
        }),
      ]),
    });
    renderPage(<PaymentsPage />, { path: '/payments' });
    const table = await screen.findByRole('table', { name: 'Payments into the active account, newest first' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows.map((cells) => cells.slice(0, 5))).toEqual([
      // The card mark reads VISA on screen and 'visa' to a screen reader.
      ['US$ 1,234.50successPartially refunded', 'order-1', 'Dana Doedana@example.test', 'VISAvisa424242******4242', 'TX1'],
      ['US$ 12.00initiate', 'order-2', 'Dana Doedana@example.test', '—', '—'],
      ['US$ 7.50failed', 'order-3', 'Dana Doedana@example.test', 'VISAvisa424242******4242', '—'],
    ]);
    // A payment with a source opens its details; one without has no link.
    expect(within(table).getByRole('link', { name: 'US$ 1,234.50' }).getAttribute('href')).toBe('/payment/details/pay-1');
    expect(within(table).queryByRole('link', { name: 'US$ 12.00' })).toBeNull();
    await waitFor(() => expect(counter('All Payments')).toBe('3'));
    expect([counter('Succeeded'), counter('Initiated'), counter('Refunded'), counter('Failed')]).toEqual(['1', '1', '1 | US$ 30.00', '1']);
    expect(calls.find((call) => call.path.startsWith('/v1/payment/account?'))?.body).toEqual({ accountEmail: signedIn.account.accountEmail });
  });

  it('says "No Payments History" when there are none', async () => {
    stubApi({ [countersPath]: counters, [listPath]: success([]) });
    renderPage(<PaymentsPage />, { path: '/payments' });
    expect(await screen.findByText('No Payments History')).toBeTruthy();
  });
});

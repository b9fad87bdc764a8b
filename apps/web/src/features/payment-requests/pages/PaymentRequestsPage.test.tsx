import { paymentRequestView, type PaymentRequestView } from '@kestrel/shared';
import { screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { PaymentRequestsPage } from './PaymentRequestsPage.tsx';

const me = signedIn.account.accountNumber;
const listPath = `GET /v1/payment-request/account/${me}`;
const countersPath = `GET /v1/payment-request/account/${me}/summary`;

function linkFixture(overrides: Partial<PaymentRequestView> = {}): PaymentRequestView {
  return paymentRequestView.parse({
    _id: 'lr-1', pRequestURL: 'http://localhost/payment-request/u1', pRequestURLId: 'u1', status: 'active', accountNumber: me, paymentPurpose: 'Bike service',
    customerName: null, customerEmail: null, customerPhone: null, reference: 'R-1', amount: { type: 'fixed', currency: 'USD', value: 1250 }, minimumAmount: null,
    maximumAmount: null, isUseLimit: true, useLimit: 3, paymentMethods: ['Card'], transactions: 0, paymentErrors: [], expiresAt: null,
    createdAt: '2026-11-20T10:00:00.000Z', refundCount: 0, refundedAmount: 0,
    ...overrides,
  });
}

const counters = success({ total: 2, active: 1, payments: 5, refundCount: 2, refundedAmount: 1234.5 });

function counter(label: string): string {
  const card = screen.getByRole('article', { name: label });
  return [...card.querySelectorAll('p')].map((p) => p.textContent).join(' | ');
}

describe('the payment request list', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('shows the counters, refunds with their sum, and each link: status, fixed amount or Custom, remaining limit, details', async () => {
    stubApi({
      [countersPath]: counters,
      [listPath]: success([
        linkFixture(),
        linkFixture({
          _id: 'lr-2', pRequestURL: 'http://localhost/payment-request/u2', paymentPurpose: 'Donations', status: 'inactive',
          amount: { type: 'customer-choosen', currency: 'USD', value: null }, minimumAmount: 1, maximumAmount: 100, isUseLimit: false, useLimit: null,
        }),
      ]),
    });
    renderPage(<PaymentRequestsPage />, { path: '/payment-request' });
    const table = await screen.findByRole('table', { name: 'Payment links of the active account, newest first' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Request URL', 'Status', 'Amount', 'Remaining Limit', 'Date', 'Details']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows.map((cells) => [cells[0], cells[1], cells[2], cells[3], cells[5]])).toEqual([
      ['Copy payment link http://localhost/payment-request/u1Bike service', 'Active', 'US$ 1,250.00', '3 Times', 'Details'],
      ['Copy payment link http://localhost/payment-request/u2Donations', 'Disable', 'Custom', 'Un-limited', 'Details'],
    ]);
    expect(within(table).getByRole('link', { name: 'Details of Donations' }).getAttribute('href')).toBe('/payment-request/details/lr-2');
    expect(counter('Total Request')).toBe('2');
    expect(counter('Active Request')).toBe('1');
    expect(counter('Total Payments')).toBe('5');
    expect(counter('Total Refund')).toBe('2 | US$ 1,234.50');
    expect(screen.getByRole('link', { name: '+ New Request' }).getAttribute('href')).toBe('/payment-request/new');
  });

  it('copies a link’s address when it is clicked and says so', async () => {
    stubApi({ [countersPath]: counters, [listPath]: success([linkFixture()]) });
    const { user } = renderPage(<PaymentRequestsPage />, { path: '/payment-request' });
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: 'Copy payment link http://localhost/payment-request/u1' }));
    expect(await screen.findByText('Payment link copied to clipboard')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('http://localhost/payment-request/u1');
  });

  it('says "You have no payment link" with a Create New link, and "—" for counters that could not be read', async () => {
    stubApi({ [countersPath]: { status: 500, body: { status: 'error', error: 'Internal server error', code: 'internal' } }, [listPath]: success([]) });
    renderPage(<PaymentRequestsPage />, { path: '/payment-request' });
    expect(await screen.findByText('You have no payment link')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create New' }).getAttribute('href')).toBe('/payment-request/new');
    await screen.findAllByText('—');
    expect(counter('Total Request')).toBe('—');
  });
});

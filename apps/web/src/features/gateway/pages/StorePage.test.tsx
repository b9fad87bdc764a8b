import type { StoreView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { StorePage } from './StorePage.tsx';

const store: StoreView = {
  _id: 'st-1',
  storeId: 'S1',
  storeName: 'Corner Shop',
  storeLogo: '/v1/store-logos/a.png',
  storeURL: 'https://shop.example.com',
  callbackURL: 'https://shop.example.com/kestrel',
  storeKey: 'key-1',
  accountEmail: signedIn.account.accountEmail,
  accountNumber: signedIn.account.accountNumber,
  status: 'Approved',
  statusReason: null,
  previousStoreKey: null,
  previousStoreKeyExpiresAt: null,
  storeKeyRotatedAt: null,
  notifyOnPayment: true,
  createdAt: '2026-11-25T12:00:00.000Z',
};

const page = {
  'GET /v1/payment_gateway_store/S1': success(store),
  'GET /v1/payment/store/S1': success([]),
  'GET /v1/payment/store/S1/summary': success({ all: 0, succeeded: 0, initiated: 0, failed: 0, refundCount: 0, refundedAmount: 0 }),
  'GET /v1/payment/store/S1/chart': success({ days: 30, series: [] }),
};

const chartDays = Array.from({ length: 30 }, (_, index) => ({ day: new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10), paidCount: 0, paidVolume: 0, failedCount: 0 }));

describe("the store page: the payments chart", () => {
  beforeEach(signIn);

  it('says "No payments in the last 30 days" for a store with none', async () => {
    stubApi(page);
    renderPage(<StorePage />, { path: '/payment-gateway/S1', pattern: '/payment-gateway/:storeId' });
    expect(await screen.findByText('No payments in the last 30 days.')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Payments per day, last 30 days' })).queryByRole('table')).toBeNull();
  });

  it('sums the volume and gives the success rate, with every day in a table for screen readers', async () => {
    const days = chartDays.map((day, index) => (index === 29 ? { ...day, paidCount: 2, paidVolume: 52.34, failedCount: 2 } : index === 3 ? { ...day, failedCount: 1 } : day));
    stubApi({ ...page, 'GET /v1/payment/store/S1/chart': success({ days: 30, series: [{ currency: 'USD', days, paidCount: 2, paidVolume: 52.34, failedCount: 3, successRate: 0.4 }] }) });
    renderPage(<StorePage />, { path: '/payment-gateway/S1', pattern: '/payment-gateway/:storeId' });
    // The summary replaces the loading placeholder once the chart is read.
    expect(await screen.findByText('US$ 52.34 in 2 paid payments (UTC days). 2 paid of 5 attempts: success rate 40%.')).toBeTruthy();
    const chart = screen.getByRole('region', { name: 'Payments per day, last 30 days' });
    const rows = within(within(chart).getByRole('table')).getAllByRole('row');
    expect(rows[0]!.textContent).toBe('Day (UTC)Volume paidPayments paid');
    expect(rows.at(-1)!.textContent).toBe('Nov 27US$ 52.342');
    expect(rows).toHaveLength(31);
  });
});

describe('the store page: payment e-mails', () => {
  beforeEach(signIn);

  it('shows the switch on, turns it off with the server and says so in a toast', async () => {
    // The server's state: the page reads it again after the change.
    let current = store;
    const calls = stubApi({
      ...page,
      'GET /v1/payment_gateway_store/S1': () => success(current),
      'PUT /v1/payment_gateway_store/S1/payment-mails': (call) => {
        current = { ...store, notifyOnPayment: (call.body as { notifyOnPayment: boolean }).notifyOnPayment };
        return success(current, 'Payment e-mails are off for this store');
      },
    });
    const { user } = renderPage(<StorePage />, { path: '/payment-gateway/S1', pattern: '/payment-gateway/:storeId' });
    const toggle = await screen.findByRole('switch', { name: 'Payment e-mails' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await user.click(toggle);
    expect(await screen.findByText('Payment e-mails are off for this store')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Payment e-mails' }).getAttribute('aria-checked')).toBe('false'));
    expect(writes(calls)).toEqual([['PUT', '/v1/payment_gateway_store/S1/payment-mails', { notifyOnPayment: false }]]);
  });

  it("keeps the server's state when the change is refused and shows why", async () => {
    stubApi({
      ...page,
      'PUT /v1/payment_gateway_store/S1/payment-mails': { status: 404, body: { status: 'error', error: 'Store not found', code: 'store_not_found' } },
    });
    const { user } = renderPage(<StorePage />, { path: '/payment-gateway/S1', pattern: '/payment-gateway/:storeId' });
    await user.click(await screen.findByRole('switch', { name: 'Payment e-mails' }));
    expect(await screen.findByText('Store not found')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Payment e-mails' }).getAttribute('aria-checked')).toBe('true');
  });
});

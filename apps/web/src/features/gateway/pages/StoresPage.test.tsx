import { storeView, type StoreView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { StoresPage } from './StoresPage.tsx';

const storesPath = `GET /v1/payment_gateway_store/account/${encodeURIComponent(signedIn.account.accountEmail)}`;

function storeFixture(overrides: Partial<StoreView> = {}): StoreView {
  return storeView.parse({
    _id: 'st-1', storeId: 'S1', storeName: 'Corner Shop', storeLogo: '/uploads/logo.png', storeURL: 'https://shop.example.test', callbackURL: 'https://shop.example.test/kestrel',
    storeKey: 'sk_live_1', accountEmail: signedIn.account.accountEmail, accountNumber: signedIn.account.accountNumber, status: 'Approved', statusReason: null,
    previousStoreKey: null, previousStoreKeyExpiresAt: null, storeKeyRotatedAt: null, notifyOnPayment: true, createdAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  });
}

const counters = { totalPayments: 12, totalSuccess: 9, totalTransactions: 9, totalRefund: 1, totalRefundAmount: 20.5 };

function counter(label: string): string {
  const card = screen.getByRole('article', { name: label });
  return [...card.querySelectorAll('p')].map((p) => p.textContent).join(' | ');
}

describe('the payment gateway store list', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('shows the approved stores by default with their details, and the counters with the refunded sum', async () => {
    stubApi({ [storesPath]: success({ stores: [storeFixture(), storeFixture({ _id: 'st-2', storeId: 'S2', storeName: 'Kiosk', status: 'Pending' })], counters }) });
    renderPage(<StoresPage />, { path: '/payment-gateway' });
    const list = await screen.findByRole('list', { name: 'Approved stores' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('link', { name: 'Corner Shop' }).getAttribute('href')).toBe('/payment-gateway/S1');
    const terms = Object.fromEntries(within(list).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(terms).toMatchObject({ 'Store ID': 'S1', 'Account email': signedIn.account.accountEmail, 'Store key': 'sk_live_1' });
    expect(terms.Created).toMatch(/^November 1st, 2026 /);
    expect(counter('Total Payments')).toBe('12');
    expect(counter('Total Success')).toBe('9');
    expect(counter('Total Transactions')).toBe('9');
    expect(counter('Total Refund')).toBe('1 | US$ 20.50');
    expect(screen.getByRole('link', { name: '+ New Store' }).getAttribute('href')).toBe('/payment-gateway/store/new');
  });

  it('says "You only allowed for approved store" when a pending store’s logo is clicked', async () => {
    stubApi({ [storesPath]: success({ stores: [storeFixture({ status: 'Pending' })], counters }) });
    const { user, router } = renderPage(<StoresPage />, { path: '/payment-gateway' });
    await user.selectOptions(await screen.findByLabelText('Status'), 'Pending');
    await user.click(screen.getByRole('button', { name: 'Open Corner Shop' }));
    expect(await screen.findByText('You only allowed for approved store')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/payment-gateway');
  });

  it('opens an approved store from its logo', async () => {
    stubApi({ [storesPath]: success({ stores: [storeFixture()], counters }) });
    const { user, router } = renderPage(<StoresPage />, { path: '/payment-gateway', routes: { '/payment-gateway/:storeId': <p>store</p> } });
    await user.click(await screen.findByRole('button', { name: 'Open Corner Shop' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment-gateway/S1'));
  });

  it('with no approved store says "No Active Store Available. Click Here to Create New Payment Gateway Store", a link to the new store form', async () => {
    stubApi({ [storesPath]: success({ stores: [storeFixture({ status: 'Rejected', statusReason: 'Documents unreadable' })], counters }) });
    const { user } = renderPage(<StoresPage />, { path: '/payment-gateway' });
    const empty = await screen.findByRole('link', { name: 'No Active Store Available. Click Here to Create New Payment Gateway Store' });
    expect(empty.getAttribute('href')).toBe('/payment-gateway/store/new');
    await user.selectOptions(screen.getByLabelText('Status'), 'Rejected');
    expect(screen.getByText('Rejected: Documents unreadable')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Status'), 'Suspended');
    expect(screen.getByText('No Suspended stores')).toBeTruthy();
  });
});

import { paymentRequestView, type PaymentRequestView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success, writes, type StubbedCall } from '../../../test/render.tsx';
import { PaymentRequestDetailsPage } from './PaymentRequestDetailsPage.tsx';

/*
 * The details page's link settings and what it shows of a link (the refunds of its payments
 * are in PaymentRequestDetailsPage.test.tsx).
 */

const path = '/payment-request/details/lr-1';
const pattern = '/payment-request/details/:paymentRequestId';

function linkFixture(overrides: Partial<PaymentRequestView> = {}): PaymentRequestView {
  return paymentRequestView.parse({
    _id: 'lr-1', pRequestURL: 'http://localhost/payment-request/u1', pRequestURLId: 'u1', status: 'active', accountNumber: 'A100', paymentPurpose: 'Bike service',
    customerName: null, customerEmail: null, customerPhone: null, reference: 'R-1', amount: { type: 'fixed', currency: 'USD', value: 40 }, minimumAmount: null,
    maximumAmount: null, isUseLimit: false, useLimit: null, paymentMethods: ['Card'], transactions: 0, paymentErrors: [], expiresAt: null,
    createdAt: '2026-11-20T10:00:00.000Z', refundCount: 0, refundedAmount: 0,
    ...overrides,
  });
}

/**
 * The link as a tiny server keeps it: GET answers its current state; each PATCH (unless
 * `refuse` is set) changes it as the API would. Answers the calls and a handle on the state.
 */
function serveLink(initial: PaymentRequestView) {
  const server = { link: initial, refuse: false };
  const refusal = { status: 500, body: { status: 'error', error: 'Internal server error', code: 'internal' } };
  const calls = stubApi({
    'GET /v1/payment-request/lr-1': () => success(server.link),
    'GET /v1/payment/payment-request/lr-1': success([]),
    'PATCH /v1/payment-request/update/lr-1': (call: StubbedCall) => {
      if (server.refuse) return refusal;
      server.link = { ...server.link, ...(call.body as { status: PaymentRequestView['status'] }) };
      return success(server.link);
    },
    'PATCH /v1/payment-request/limit/update/lr-1': (call: StubbedCall) => {
      if (server.refuse) return refusal;
      const body = call.body as { isUseLimit?: boolean; useLimit: number };
      server.link = { ...server.link, isUseLimit: body.isUseLimit ?? server.link.isUseLimit, useLimit: body.useLimit };
      return success(server.link);
    },
  });
  return { calls, server };
}

/** The 'Payment details' and 'Customer information' panels as label → value. */
function panel(name: string): Record<string, string> {
  const region = screen.getByRole('region', { name });
  return Object.fromEntries(within(region).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent ?? '']));
}

describe('a payment link’s details: what it shows, its switch and its limit', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('shows a fixed link’s amount, an unlimited limit, and N/A for a customer not given', async () => {
    serveLink(linkFixture());
    const { user } = renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    expect(await screen.findByRole('heading', { name: 'Bike service' })).toBeTruthy();
    expect(panel('Payment details')).toEqual({
      'Fixed amount': 'US$ 40.00',
      Purpose: 'Bike service',
      Reference: 'R-1',
      'Remaining limit': 'Un-limited',
      Transactions: '0',
      'Payment methods': 'Card',
    });
    expect(panel('Customer information')).toEqual({ Name: 'N/A', Email: 'N/A', Phone: 'N/A' });
    expect(await screen.findByText('No successful transactions found!')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Failed' }));
    expect(await screen.findByText('No failed transactions found!')).toBeTruthy();
  });

  it('shows a custom-amount link as Custom with its minimum and maximum, and its remaining uses as "{n} Times"', async () => {
    serveLink(
      linkFixture({
        amount: { type: 'customer-choosen', currency: 'USD', value: null }, minimumAmount: 5, maximumAmount: 1234.5, isUseLimit: true, useLimit: 3,
        customerName: 'Dana Doe', customerEmail: 'dana@example.test', customerPhone: '+15550100009', paymentMethods: ['Card', 'Kestrel'], transactions: 7,
      }),
    );
    renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    await screen.findByRole('heading', { name: 'Bike service' });
    expect(panel('Payment details')).toEqual({
      Amount: 'Custom',
      'Minimum amount': 'US$ 5.00',
      'Maximum amount': 'US$ 1,234.50',
      Purpose: 'Bike service',
      Reference: 'R-1',
      'Remaining limit': '3 Times',
      Transactions: '7',
      'Payment methods': 'Card, Kestrel',
    });
    expect(panel('Customer information')).toEqual({ Name: 'Dana Doe', Email: 'dana@example.test', Phone: '+15550100009' });
  });

  it('switches the link off and on, the shown state changing only when the server accepts, else "Status update failed!"', async () => {
    const { calls, server } = serveLink(linkFixture());
    const { user } = renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    const toggle = await screen.findByRole('switch', { name: 'Active' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await user.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(screen.getByText('Disable')).toBeTruthy();

    server.refuse = true;
    await user.click(toggle);
    expect(await screen.findByText('Status update failed!')).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('Disable')).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['PATCH', '/v1/payment-request/update/lr-1', { status: 'inactive' }],
      ['PATCH', '/v1/payment-request/update/lr-1', { status: 'active' }],
    ]);
  });

  it('gives an unlimited link a limit by turning it on with its count, and changes only the count of a limited one', async () => {
    const { calls } = serveLink(linkFixture());
    const { user } = renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    await user.click(await screen.findByRole('button', { name: 'Edit remaining limit' }));
    const input = screen.getByRole('spinbutton', { name: 'Remaining limit' }) as HTMLInputElement;
    expect([input.value, input.placeholder, input.min]).toEqual(['', 'Enter limit', '0']);
    await user.type(input, '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Limit updated')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('remaining-limit').textContent).toBe('5 Times'));

    await user.click(screen.getByRole('button', { name: 'Edit remaining limit' }));
    const again = screen.getByRole('spinbutton', { name: 'Remaining limit' }) as HTMLInputElement;
    expect(again.value).toBe('5');
    await user.clear(again);
    await user.type(again, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('remaining-limit').textContent).toBe('0 Times'));
    expect(writes(calls)).toEqual([
      ['PATCH', '/v1/payment-request/limit/update/lr-1', { isUseLimit: true, useLimit: 5 }],
      ['PATCH', '/v1/payment-request/limit/update/lr-1', { useLimit: 0 }],
    ]);
  });

  it('refuses an empty or fractional limit with its message, and says "Update failed!" when the server refuses', async () => {
    const { calls, server } = serveLink(linkFixture({ isUseLimit: true, useLimit: 2 }));
    const { user } = renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    await user.click(await screen.findByRole('button', { name: 'Edit remaining limit' }));
    const input = screen.getByRole('spinbutton', { name: 'Remaining limit' });
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Limit must be a whole number of 0 or more')).toBeTruthy();
    await user.type(input, '1.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Limit must be a whole number of 0 or more')).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    server.refuse = true;
    await user.clear(input);
    await user.type(input, '4');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update failed!')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('remaining-limit').textContent).toBe('2 Times');
  });

  it('says "No details found!" for a link that cannot be read', async () => {
    stubApi({ 'GET /v1/payment-request/lr-1': { status: 404, body: { status: 'error', error: 'Payment request not found', code: 'not_found' } } });
    renderPage(<PaymentRequestDetailsPage />, { path, pattern });
    expect((await screen.findByRole('alert')).textContent).toBe('No details found!');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { NewPaymentRequestPage } from './NewPaymentRequestPage.tsx';
import { typeInto } from '../../../test/form.ts';

const path = '/payment-request/new';
const createPath = 'POST /v1/payment-request/create';
const created = success({ _id: 'lr-7', pRequestURLId: 'u7', pRequestURL: 'http://localhost/payment-request/u7' });

type User = ReturnType<typeof renderPage>['user'];

/** The message under an input or a choice group (each names it with aria-describedby). */
function errorOf(element: HTMLElement): string | null {
  const ids = element.getAttribute('aria-describedby') ?? '';
  const texts = ids
    .split(' ')
    .map((id) => (id ? document.getElementById(id)?.textContent : undefined))
    .filter((value): value is string => Boolean(value));
  return texts.at(-1) ?? null;
}
const fieldError = (label: string) => errorOf(screen.getByLabelText(label));
const groupError = (legend: string) => errorOf(screen.getByRole('group', { name: legend }));

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Create payment request' }));

async function fillBasics(user: User) {
  await typeInto(user, 'Payment Purpose', 'Bike service');
  await typeInto(user, 'Reference', 'R-42');
  await typeInto(user, 'TPIN', '1234');
}

describe('the new payment request form', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('starts with a fixed amount, no limit and both payment methods, and shows the required messages', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    expect((screen.getByLabelText('Fixed amount') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('No limit') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Card') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Kestrel') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Use Limit')).toBeNull();
    expect(screen.queryByLabelText('Minimum Amount (USD)')).toBeNull();
    await submit(user);
    await waitFor(() => expect(fieldError('Payment Purpose')).toBe('Payment Purpose is required'));
    expect(fieldError('Reference')).toBe('Reference is required');
    expect(fieldError('Amount (USD)')).toBe('Amount is required');
    expect(fieldError('TPIN')).toBe('TPIN is required');
    // Optional: nothing under the customer's fields.
    expect(fieldError('Customer Name')).toBeNull();
    expect(fieldError('Customer Email')).toBeNull();
    expect(fieldError('Customer Phone')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('keeps amounts to digits and one point, refuses a third decimal and zero, and a TPIN that is not 4 digits', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    const amount = screen.getByLabelText('Amount (USD)') as HTMLInputElement;
    await user.type(amount, '1a2.3.4$');
    expect(amount.value).toBe('12.34');
    await typeInto(user, 'Amount (USD)', '1.005');
    await typeInto(user, 'TPIN', '12');
    await submit(user);
    await waitFor(() => expect(fieldError('Amount (USD)')).toBe('Enter an amount greater than 0 with at most two decimals'));
    expect(fieldError('TPIN')).toBe('TPIN must be 4 digits');
    await typeInto(user, 'Amount (USD)', '0');
    await submit(user);
    await waitFor(() => expect(fieldError('Amount (USD)')).toBe('Enter an amount greater than 0 with at most two decimals'));
    await typeInto(user, 'TPIN', '123456');
    expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe('1234');
    expect(writes(calls)).toEqual([]);
  });

  it('asks a customer-choosen amount for a minimum and a maximum, each required, the minimum not above the maximum', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    await user.click(screen.getByLabelText('Customer choosen'));
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull();
    await submit(user);
    await waitFor(() => expect(fieldError('Minimum Amount (USD)')).toBe('Minimum Amount is required'));
    expect(fieldError('Maximum Amount (USD)')).toBe('Maximum Amount is required');

    await typeInto(user, 'Minimum Amount (USD)', '50');
    await typeInto(user, 'Maximum Amount (USD)', '49.99');
    await submit(user);
    await waitFor(() => expect(fieldError('Minimum Amount (USD)')).toBe('Minimum Amount must not be more than Maximum Amount'));
    expect(fieldError('Maximum Amount (USD)')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('asks for the use limit when the limit is on: "Use Limit is required", then a whole number of at least 1', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    await user.click(screen.getByLabelText('Limit the uses'));
    await submit(user);
    await waitFor(() => expect(fieldError('Use Limit')).toBe('Use Limit is required'));
    await typeInto(user, 'Use Limit', '0');
    await submit(user);
    await waitFor(() => expect(fieldError('Use Limit')).toBe('Use Limit must be a whole number of at least 1'));
    await user.click(screen.getByLabelText('No limit'));
    expect(screen.queryByLabelText('Use Limit')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('needs at least one payment method, a valid customer email and an expiry in the future', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    await user.click(screen.getByLabelText('Card'));
    await user.click(screen.getByLabelText('Kestrel'));
    await typeInto(user, 'Customer Email', 'dana@');
    await typeInto(user, 'Expires At (optional)', '2020-01-01T10:00');
    await submit(user);
    await waitFor(() => expect(groupError('Payment Methods')).toBe('Choose at least one payment method'));
    expect(fieldError('Customer Email')).toBe('Enter a valid email address');
    expect(fieldError('Expires At (optional)')).toBe('Expires At must be in the future');
    expect(writes(calls)).toEqual([]);
  });

  it('sends a fixed link with its amount as typed, no limit, and opens its details with the spec’s toast', async () => {
    const calls = stubApi({ [createPath]: created });
    const { user, router } = renderPage(<NewPaymentRequestPage />, { path, routes: { '/payment-request/details/:id': <p>details</p> } });
    await fillBasics(user);
    await typeInto(user, 'Amount (USD)', '25.5');
    await user.click(screen.getByLabelText('Kestrel'));
    await typeInto(user, 'Customer Name', '  Dana Doe ');
    await submit(user);
    expect(await screen.findByText('Congratulations! You create new payment request')).toBeTruthy();
    expect(writes(calls)).toEqual([
      [
        'POST',
        '/v1/payment-request/create',
        {
          paymentPurpose: 'Bike service', userId: signedIn.userId, tpin: '1234', accountNumber: signedIn.account.accountNumber, customerName: 'Dana Doe',
          amount: { type: 'fixed', currency: 'USD', value: '25.5' }, isUseLimit: false, reference: 'R-42', paymentMethods: ['Card'],
        },
      ],
    ]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment-request/details/lr-7'));
  });

  it('sends a customer-choosen link with its range and use limit, and no fixed value', async () => {
    const calls = stubApi({ [createPath]: created });
    const { user } = renderPage(<NewPaymentRequestPage />, { path, routes: { '/payment-request/details/:id': <p>details</p> } });
    await fillBasics(user);
    await typeInto(user, 'Amount (USD)', '99');
    await user.click(screen.getByLabelText('Customer choosen'));
    await typeInto(user, 'Minimum Amount (USD)', '5');
    await typeInto(user, 'Maximum Amount (USD)', '500.25');
    await user.click(screen.getByLabelText('Limit the uses'));
    await typeInto(user, 'Use Limit', '3');
    await submit(user);
    expect(await screen.findByText('Congratulations! You create new payment request')).toBeTruthy();
    expect(writes(calls)[0]?.[2]).toEqual({
      paymentPurpose: 'Bike service', userId: signedIn.userId, tpin: '1234', accountNumber: signedIn.account.accountNumber,
      amount: { type: 'customer-choosen', currency: 'USD' }, minimumAmount: '5', maximumAmount: '500.25', isUseLimit: true, useLimit: 3,
      reference: 'R-42', paymentMethods: ['Card', 'Kestrel'],
    });
  });

  it('shows the server’s refusal, puts its field message under the amount, and empties a wrong TPIN', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: { status: 'error', error: 'Invalid request', code: 'validation_failed', fields: { 'amount.value': 'The minimum payment amount is US$ 0.50' } },
    };
    stubApi({ [createPath]: () => answer });
    const { user } = renderPage(<NewPaymentRequestPage />, { path });
    await fillBasics(user);
    await typeInto(user, 'Amount (USD)', '0.25');
    await submit(user);
    await waitFor(() => expect(fieldError('Amount (USD)')).toBe('The minimum payment amount is US$ 0.50'));
    expect(within(screen.getByRole('status')).getByText('Invalid request')).toBeTruthy();

    answer = { status: 400, body: { status: 'error', error: 'Incorrect TPIN', code: 'tpin_incorrect' } };
    await typeInto(user, 'Amount (USD)', '25');
    await submit(user);
    expect(await screen.findByText('Incorrect TPIN')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe(''));
    expect(document.activeElement).toBe(screen.getByLabelText('TPIN'));
  });

  it('after an answer that never came, says sending again is safe and sends the same link with the same key', async () => {
    let attempt = 0;
    const calls = stubApi({
      [createPath]: () => {
        attempt += 1;
        return attempt === 1 ? { status: 503, body: { status: 'error', error: 'Kestrel is briefly unavailable.', code: 'database_unavailable' } } : created;
      },
    });
    const { user } = renderPage(<NewPaymentRequestPage />, { path, routes: { '/payment-request/details/:id': <p>details</p> } });
    await fillBasics(user);
    await typeInto(user, 'Amount (USD)', '10');
    await submit(user);
    expect(await screen.findByText('Payment request failed! Sending it again is safe: the link will not be made twice.')).toBeTruthy();
    await submit(user);
    expect(await screen.findByText('Congratulations! You create new payment request')).toBeTruthy();
    const keys = calls.filter((call) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });
});

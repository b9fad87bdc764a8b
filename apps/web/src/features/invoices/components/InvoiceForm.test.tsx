import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, writes } from '../../../test/render.tsx';
import { InvoiceForm } from './InvoiceForm.tsx';

const labels = {
  name: 'Customer name',
  phone: 'Customer phone',
  email: 'Customer email',
  reciver: 'Receiver name',
  unit_price: 'Unit Price',
  quantity: 'Quantity',
  details: 'Details',
} as const;
type Values = Partial<Record<keyof typeof labels, string>>;
const complete: Required<Values> = {
  name: 'Corner Shop',
  phone: '01712345678',
  email: 'shop@example.test',
  reciver: 'Grace Hopper',
  unit_price: '12.75',
  quantity: '2',
  details: 'Two boxes',
};

function fieldError(label: string): string | null {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

async function fill(user: ReturnType<typeof renderPage>['user'], values: Values) {
  for (const [field, value] of Object.entries(values) as [keyof typeof labels, string][]) {
    if (value) await user.type(screen.getByLabelText(labels[field]), value);
  }
}

describe('the invoice form', () => {
  beforeEach(signIn);

  it('shows the required messages and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<InvoiceForm />, { path: '/invoice' });
    await user.click(screen.getByRole('button', { name: 'Create Invoice' }));
    await waitFor(() => expect(fieldError(labels.name)).toBe('Name is required'));
    expect(fieldError(labels.reciver)).toBe('Receiver name is required');
    expect(fieldError('Unit Price')).toBe('Must be greater than 0');
    expect(fieldError('Quantity')).toBe('Must be at least 1');
    expect(fieldError('Details')).toBe('Details are required');
    expect(writes(calls)).toEqual([]);
  });

  it('refuses a foreign phone, a price with three decimals and a fractional quantity', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<InvoiceForm />, { path: '/invoice' });
    await fill(user, { ...complete, phone: '5550001111', unit_price: '1.005', quantity: '1.5' });
    await user.click(screen.getByRole('button', { name: 'Create Invoice' }));
    await waitFor(() => expect(fieldError(labels.phone)).toBe('Invalid Bangladeshi phone number'));
    expect(fieldError('Unit Price')).toBe('Use at most two decimals');
    expect(fieldError('Quantity')).toBe('Quantity must be a whole number');
    expect(writes(calls)).toEqual([]);
  });

  it('shows the total in exact cents as the price and quantity are typed', async () => {
    stubApi({});
    const { user } = renderPage(<InvoiceForm />, { path: '/invoice' });
    await fill(user, { unit_price: '0.29', quantity: '3' });
    expect(await screen.findByText('Total Price: US$ 0.87')).toBeTruthy();
    await user.clear(screen.getByLabelText('Quantity'));
    await user.type(screen.getByLabelText('Quantity'), '1000');
    expect(await screen.findByText('Total Price: US$ 290.00')).toBeTruthy();
  });

  it('creates the invoice for the signed-in user, says so and empties the form', async () => {
    const calls = stubApi({
      'POST /data/v1/invoice/create': {
        status: 200,
        body: {
          status: 'success',
          data: { _id: 'inv-1', invoiceNumber: 1, ...complete, unit_price: 12.75, quantity: 2, totalPrice: 25.5, currency: 'USD', userId: signedIn.userId, createdAt: '2026-11-25T12:00:00.000Z' },
        },
      },
    });
    const { user } = renderPage(<InvoiceForm />, { path: '/invoice' });
    await fill(user, complete);
    expect(await screen.findByText('Total Price: US$ 25.50')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Invoice created successfully!')).toBeTruthy();
    // The price goes as the typed text, parsed exactly by the API; the quantity as a number.
    expect(writes(calls)).toEqual([['POST', '/data/v1/invoice/create', { ...complete, quantity: 2, userId: signedIn.userId }]]);
    expect((screen.getByLabelText(labels.name) as HTMLInputElement).value).toBe('');
  });

  it('says "Failed to create invoice." and puts the server’s field message under its field', async () => {
    stubApi({
      'POST /data/v1/invoice/create': {
        status: 400,
        body: { status: 'error', error: 'Invalid request', code: 'validation_failed', fields: { email: 'Invalid email address' } },
      },
    });
    const { user } = renderPage(<InvoiceForm />, { path: '/invoice' });
    await fill(user, complete);
    await user.click(screen.getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Failed to create invoice.')).toBeTruthy();
    expect(fieldError(labels.email)).toBe('Invalid email address');
  });
});

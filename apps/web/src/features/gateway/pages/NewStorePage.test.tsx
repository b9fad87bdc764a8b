import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, writes } from '../../../test/render.tsx';
import { NewStorePage } from './NewStorePage.tsx';

function fieldError(label: string): string | null {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

async function fillText(user: ReturnType<typeof renderPage>['user'], values: Partial<Record<'Store Name' | 'Store URL' | 'Callback URL' | 'TPIN', string>>) {
  for (const [label, value] of Object.entries(values)) if (value) await user.type(screen.getByLabelText(label), value);
}

const complete = { 'Store Name': 'Corner Shop', 'Store URL': 'https://shop.example.com', 'Callback URL': 'https://shop.example.com/kestrel', TPIN: '1234' };

describe('the new store form', () => {
  beforeEach(signIn);

  it('shows every required message, the two images included, and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewStorePage />, { path: '/payment-gateway/store/new' });
    await user.click(screen.getByRole('button', { name: 'Create Store' }));
    await waitFor(() => expect(fieldError('Store Name')).toBe('Store Name is required'));
    expect(fieldError('Store URL')).toBe('Store URL is required');
    expect(fieldError('Callback URL')).toBe('Callback URL is required');
    expect(fieldError('TPIN')).toBe('TPIN is required');
    expect(fieldError('Store Logo')).toBe('Store Logo is required');
    expect(fieldError('Business documents')).toBe('Business documents are required');
    expect(writes(calls)).toEqual([]);
  });

  it('refuses a URL that is not http(s), a short TPIN and a document that is not an image', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<NewStorePage />, { path: '/payment-gateway/store/new' });
    await fillText(user, { ...complete, 'Store URL': 'ftp://shop.example.com', TPIN: '12' });
    await user.upload(screen.getByLabelText('Store Logo'), png('logo.png'));
    // The picker's accept="image/*" is a hint a user can get round; the form checks the type itself.
    fireEvent.change(screen.getByLabelText('Business documents'), { target: { files: [pdf('licence.pdf')] } });
    await user.click(screen.getByRole('button', { name: 'Create Store' }));
    await waitFor(() => expect(fieldError('Store URL')).toBe('Enter an http(s) URL, e.g. https://shop.example.com'));
    expect(fieldError('TPIN')).toBe('TPIN must be 4 digits');
    expect(fieldError('Business documents')).toBe('Only image files (JPEG, PNG, WebP or GIF) are accepted');
    expect(fieldError('Store Logo')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('sends the store as multipart with the active account and says it waits for approval', async () => {
    const calls = stubApi({
      'POST /v1/payment_gateway_store/create': (call) => {
        const form = call.body as FormData;
        const data = {
          _id: 'st-1', storeId: 'S1', storeName: form.get('storeName'), storeLogo: '/v1/store-logos/a.png', storeURL: form.get('storeURL'),
          callbackURL: form.get('callbackURL'), storeKey: 'key', accountEmail: signedIn.account.accountEmail, accountNumber: signedIn.account.accountNumber,
          status: 'Pending', statusReason: null, createdAt: '2026-11-25T12:00:00.000Z',
        };
        return { status: 200, body: { status: 'success', data } };
      },
    });
    const { user, router } = renderPage(<NewStorePage />, { path: '/payment-gateway/store/new', routes: { '/payment-gateway': <p>stores</p> } });
    await fillText(user, complete);
    await user.upload(screen.getByLabelText('Store Logo'), png('logo.png'));
    await user.upload(screen.getByLabelText('Business documents'), [png('a.png'), png('b.png')]);
    expect(screen.getByText('2 images chosen')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create Store' }));
    expect(await screen.findByText('Congratulations! Please wait for approval')).toBeTruthy();
    const form = calls.find((call) => call.method === 'POST')?.body as FormData;
    expect([...form.keys()]).toEqual(['accountKey', 'userId', 'storeName', 'storeURL', 'callbackURL', 'tpin', 'storeLogo', 'businessDocuments', 'businessDocuments']);
    expect(form.get('accountKey')).toBe(signedIn.account.accountNumber);
    expect(form.get('tpin')).toBe('1234');
    expect((form.getAll('businessDocuments') as File[]).map((file) => file.name)).toEqual(['a.png', 'b.png']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment-gateway'));
  });

  it('shows the server’s refusal ("Incorrect TPIN") in a toast and under the TPIN', async () => {
    stubApi({
      'POST /v1/payment_gateway_store/create': { status: 400, body: { status: 'error', error: 'Incorrect TPIN', code: 'tpin_incorrect', fields: { tpin: 'Incorrect TPIN' } } },
    });
    const { user } = renderPage(<NewStorePage />, { path: '/payment-gateway/store/new' });
    await fillText(user, complete);
    await user.upload(screen.getByLabelText('Store Logo'), png('logo.png'));
    await user.upload(screen.getByLabelText('Business documents'), png('a.png'));
    await user.click(screen.getByRole('button', { name: 'Create Store' }));
    await waitFor(() => expect(fieldError('TPIN')).toBe('Incorrect TPIN'));
    expect(screen.getAllByText('Incorrect TPIN').length).toBe(2);
  });
});

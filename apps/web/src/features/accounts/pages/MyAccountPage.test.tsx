import { screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { MyAccountPage } from './MyAccountPage.tsx';

const accountPath = `GET /v1/account/${signedIn.account.accountNumber}`;
const countries = { 'GET /data/v1/countries': { status: 200, body: { US: { country: 'United States' }, BD: { country: 'Bangladesh' } } } };

/** The account details as label → value. */
function details(): Record<string, string> {
  const dl = screen.getByText('Account number').closest('dl')!;
  return Object.fromEntries(within(dl).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent ?? '']));
}

describe('My Account', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('shows the basic info, the country by name, the balance under Available as US$, and a Verified badge', async () => {
    stubApi({ ...countries, [accountPath]: success(accountFixture({ balance: [{ currency: 'USD', amount: 1234567.8 }] })) });
    renderPage(<MyAccountPage />, { path: '/my-account' });
    expect(await screen.findByRole('tab', { name: 'Basic info', selected: true })).toBeTruthy();
    await screen.findByText('United States');
    expect(details()).toMatchObject({
      'Account number': signedIn.account.accountNumber,
      'Account type': 'personal',
      Username: signedIn.account.userName,
      Email: signedIn.account.accountEmail,
      Phone: '+15550001111',
      Country: 'United States',
    });
    expect(details().Since).toMatch(/^November 1st, 2026 /);
    const available = screen.getByRole('heading', { name: 'Available' }).closest('section')!;
    expect(within(available).getByRole('listitem').textContent).toBe('USDUS$ 1,234,567.80');
    expect(screen.getByText('Verified')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify now' })).toBeNull();
  });

  it('shows Unverified with a Verify now that explains the review, and toggles the sample ID’s sides', async () => {
    stubApi({ ...countries, [accountPath]: success(accountFixture({ identity: { type: 'passport', number: 'P-1', isVerified: false } })) });
    const { user } = renderPage(<MyAccountPage />, { path: '/my-account' });
    expect(await screen.findByText('Unverified')).toBeTruthy();
    expect(screen.getByText('Passport')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Verify now' }));
    expect(await screen.findByText('Identity review is done by Kestrel staff after upload. Upload your identity images first.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Front', pressed: true })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Back', pressed: true })).toBeTruthy();
    expect(screen.getByText(/^Sample ID, back:/)).toBeTruthy();
  });

  it('lists the activities with their comment, "No comment" for none', async () => {
    stubApi({
      ...countries,
      [accountPath]: success(accountFixture()),
      'GET /v1/activities': success([
        {
          _id: '2026-11-26',
          activities: [
            { _id: 'a2', name: 'Fund transfer', comment: 'US$ 12.50 to grace', date: '2026-11-26T10:00:00.000Z', account: 'acc-1' },
            { _id: 'a1', name: 'Login', comment: null, date: '2026-11-26T09:00:00.000Z', account: 'acc-1' },
          ],
        },
      ]),
    });
    const { user } = renderPage(<MyAccountPage />, { path: '/my-account' });
    await user.click(await screen.findByRole('tab', { name: 'Activities' }));
    const list = await screen.findByRole('list', { name: 'Activities' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelectorAll('p')[1]?.textContent)).toEqual(['US$ 12.50 to grace', 'No comment']);
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(['Fund transfer', 'Login']);
  });
});

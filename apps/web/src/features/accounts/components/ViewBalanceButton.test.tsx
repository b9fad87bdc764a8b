import { screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session.ts';
import { accountFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { ViewBalanceButton } from './ViewBalanceButton.tsx';

const accountPath = `GET /v1/account/${signedIn.account.accountNumber}`;
const reads = (calls: { method: string; path: string }[]) => calls.filter((call) => `${call.method} ${call.path}` === accountPath).length;

describe('the View Balance button', () => {
  beforeEach(() => {
    toast.remove();
  });

  it('reveals the balance as "1,234.50 USD" for 5 seconds, ignores a second click within 500 ms, then hides it again', async () => {
    signIn();
    const calls = stubApi({ [accountPath]: success(accountFixture({ balance: [{ currency: 'USD', amount: 1234.5 }] })) });
    const { user } = renderPage(<ViewBalanceButton />);
    const button = screen.getByRole('button', { name: 'View Balance' });
    await user.click(button);
    expect(await screen.findByRole('button', { name: '1,234.50 USD' })).toBeTruthy();
    expect(screen.getByText('Balance: 1,234.50 USD')).toBeTruthy();
    await user.click(button);
    expect(reads(calls)).toBe(1);
    // Still shown well into the 5 seconds, gone soon after them.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(screen.getByRole('button').textContent).toBe('1,234.50 USD');
    await waitFor(() => expect(screen.getByRole('button').textContent).toBe('View Balance'), { timeout: 3000 });
    expect(screen.queryByText(/^Balance:/)).toBeNull();
  });

  it('reads the balance afresh on every reveal, and shows an account with no balance entry as 0.00 USD', async () => {
    signIn();
    let balance = [{ currency: 'USD' as const, amount: 250.5 }];
    const calls = stubApi({ [accountPath]: () => success(accountFixture({ balance })) });
    const { user } = renderPage(<ViewBalanceButton />);
    await user.click(screen.getByRole('button', { name: 'View Balance' }));
    expect(await screen.findByRole('button', { name: '250.50 USD' })).toBeTruthy();
    balance = [];
    // Past the 500 ms in which a click is ignored.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await user.click(screen.getByRole('button'));
    expect(await screen.findByRole('button', { name: '0.00 USD' })).toBeTruthy();
    expect(reads(calls)).toBe(2);
  });

  it('says "Account not available!" when no account is chosen, and when the account cannot be read', async () => {
    startSession({ userId: signedIn.userId, token: signedIn.token });
    const calls = stubApi({});
    const first = renderPage(<ViewBalanceButton />);
    await first.user.click(screen.getByRole('button', { name: 'View Balance' }));
    expect(await screen.findByText('Account not available!')).toBeTruthy();
    expect(calls).toEqual([]);
    first.unmount();
    toast.remove();

    signIn();
    stubApi({ [accountPath]: { status: 502, body: {} } });
    const { user } = renderPage(<ViewBalanceButton />);
    await user.click(screen.getByRole('button', { name: 'View Balance' }));
    expect(await screen.findByText('Account not available!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'View Balance' })).toBeTruthy();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { PortalGate } from './PortalGate.tsx';

const userPath = `GET /v1/user/${signedIn.userId}`;

/** The profile's answer, held until the test lets it through. */
function heldProfile() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  stubApi({
    [userPath]: () => success(userProfileFixture()),
    [`GET /v1/account/${signedIn.account.accountNumber}/summary`]: success({ totalPayments: 1, successPayments: 1, totalWithdraw: 0, totalTransactions: 2 }),
  });
  const stubbed = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).startsWith('/v1/user/')) await held;
    return stubbed(input, init);
  });
  return release;
}

describe('the portal gate while the profile loads', () => {
  beforeEach(signIn);

  it('shows the dashboard’s skeleton on the dashboard (the shell, the heading, the counters loading, nothing of the user’s), then the page', async () => {
    const release = heldProfile();
    renderPage(<PortalGate />, { path: '/dashboard' });
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-busy'))).toEqual(['true', 'true', 'true', 'true']);
    expect(screen.queryByText(/Welcome back/)).toBeNull();
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    release();
    // The route's page (not given to this router) replaces the skeleton; the shell stays.
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Dashboard' })).toBeNull());
    expect(screen.getByRole('button', { name: /Ada|Personal|Business/ })).toBeTruthy();
  });

  it('shows the spinner on the other pages, as before', () => {
    heldProfile();
    renderPage(<PortalGate />, { path: '/transactions' });
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });
});

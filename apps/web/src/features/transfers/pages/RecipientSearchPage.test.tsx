import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { RecipientSearchPage } from './RecipientSearchPage.tsx';

const path = '/fund-transfer/wallet/recipient';
const pattern = '/fund-transfer/:area/recipient';
const recentPath = `GET /v1/account/transfer_balance/recent/${signedIn.account.accountNumber}`;

const grace = { _id: 'acc-2', accountNumber: 'B200', accountType: 'personal', accountHolderName: 'Grace Hopper', businessName: null, userName: 'grace' };
const cobol = { _id: 'acc-3', accountNumber: 'C300', accountType: 'business', accountHolderName: 'Grace H.', businessName: 'Cobol Works', userName: 'cobol' };

const searchBox = () => screen.getByRole('searchbox', { name: 'Search recipient' });

describe('the recipient search', () => {
  beforeEach(signIn);

  it('asks who to send to and lists the recent recipients, business ones by business name, each a link to the transfer form', async () => {
    stubApi({ [recentPath]: success([grace, cobol]) });
    renderPage(<RecipientSearchPage />, { path, pattern });
    expect(screen.getByRole('heading', { name: 'Who do you want to send money to?' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Recent recipients' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/fund-transfer/wallet/recipient/grace', '/fund-transfer/wallet/recipient/cobol']);
    expect(links[0]?.textContent).toContain('Grace Hopper');
    expect(links[1]?.textContent).toContain('Cobol Works');
    expect(links[1]?.textContent).toContain('Business');
    expect(list.style.maxHeight).toBe('300px');
  });

  it('says "No recent accounts found!" when there are none', async () => {
    stubApi({ [recentPath]: success([]) });
    renderPage(<RecipientSearchPage />, { path, pattern });
    expect(await screen.findByText('No recent accounts found!')).toBeTruthy();
  });

  it('asks for 3 characters before searching, then shows the matches for the current account, or "No recipients found."', async () => {
    const calls = stubApi({
      [recentPath]: success([]),
      'GET /v1/account/search': (call) => success(call.path.includes('query=grace') ? [grace] : []),
    });
    const { user } = renderPage(<RecipientSearchPage />, { path, pattern });
    await user.type(searchBox(), 'gr');
    expect(screen.getByText('Type at least 3 characters to search')).toBeTruthy();
    await user.type(searchBox(), 'ace');
    const list = await screen.findByRole('list', { name: 'Matching recipients' });
    expect(within(list).getByRole('link').getAttribute('href')).toBe('/fund-transfer/wallet/recipient/grace');
    await user.clear(searchBox());
    await user.type(searchBox(), 'nobody');
    expect(await screen.findByText('No recipients found.')).toBeTruthy();
    const searches = calls.filter((call) => call.path.startsWith('/v1/account/search')).map((call) => call.path);
    // Text shorter than 3 is never searched; every search leaves out the sending account.
    expect(searches).toContain(`/v1/account/search?query=grace&accountNumber=${signedIn.account.accountNumber}`);
    expect(searches).toContain(`/v1/account/search?query=nobody&accountNumber=${signedIn.account.accountNumber}`);
    for (const search of searches) expect(search).toMatch(new RegExp(`^/v1/account/search\\?query=[a-z]{3,}&accountNumber=${signedIn.account.accountNumber}$`));
    expect(writes(calls)).toEqual([]);
  });

  it('goes back to the recent recipients when the box is cleared', async () => {
    stubApi({ [recentPath]: success([grace]), 'GET /v1/account/search': success([]) });
    const { user } = renderPage(<RecipientSearchPage />, { path, pattern });
    await user.type(searchBox(), 'zzz');
    expect(await screen.findByText('No recipients found.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Recent recipients' })).toBeTruthy());
    expect((searchBox() as HTMLInputElement).value).toBe('');
  });

  it('shows the server’s message with a way to try again when the recipients cannot be loaded', async () => {
    let fail = true;
    stubApi({
      [recentPath]: success([]),
      'GET /v1/account/search': () =>
        fail ? { status: 429, body: { status: 'error', error: "You have reached today's limit of recipient searches. Try again tomorrow.", code: 'rate_limited' } } : success([grace]),
    });
    const { user } = renderPage(<RecipientSearchPage />, { path, pattern });
    await user.type(searchBox(), 'grace');
    expect((await screen.findByRole('alert')).textContent).toContain("You have reached today's limit of recipient searches. Try again tomorrow.");
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Matching recipients' })).toBeTruthy();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PortalUserContext } from '../../../lib/portal-user.ts';
import { userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { DashboardPage } from './DashboardPage.tsx';

const summaryPath = `GET /v1/account/${signedIn.account.accountNumber}/summary`;
const chartPath = `/v1/account/${signedIn.account.accountNumber}/chart`;

const counter = (label: string) => screen.getByRole('article', { name: label }).querySelector('p')?.textContent;

const renderDashboard = () =>
  renderPage(
    <PortalUserContext value={userProfileFixture()}>
      <DashboardPage />
    </PortalUserContext>,
    { path: '/dashboard' },
  );

describe('the dashboard', () => {
  beforeEach(signIn);

  it('greets the user and shows the four counters of the active account, grouped in thousands', async () => {
    stubApi({ [summaryPath]: success({ totalPayments: 1234, successPayments: 1000, totalWithdraw: 0, totalTransactions: 56 }) });
    renderDashboard();
    expect(screen.getByText('Welcome back, Ada.')).toBeTruthy();
    expect(await screen.findByText('1,234')).toBeTruthy();
    expect(counter('Total Payments')).toBe('1,234');
    expect(counter('Success Payment')).toBe('1,000');
    expect(counter('Total Withdraw')).toBe('0');
    expect(counter('Total Transaction')).toBe('56');
  });

  it('says the counters could not be loaded and shows "–", never a wrong 0', async () => {
    stubApi({ [summaryPath]: { status: 503, body: { status: 'error', error: 'Kestrel is briefly unavailable. Please try again in a moment.', code: 'database_unavailable' } } });
    renderDashboard();
    // The counters' own alert (the charts below, whose calls are not stubbed here, say their own).
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toContain('Kestrel is briefly unavailable. Please try again in a moment.');
    expect(['Total Payments', 'Success Payment', 'Total Withdraw', 'Total Transaction'].map(counter)).toEqual(['–', '–', '–', '–']);
  });

  it('asks for the charts only once the counters have answered', async () => {
    const calls = stubApi({
      [summaryPath]: success({ totalPayments: 3, successPayments: 2, totalWithdraw: 1, totalTransactions: 9 }),
      [`GET ${chartPath}`]: success({ days: 30, series: [] }),
    });
    // The counters' answer is held until the test lets it through.
    const stubbed = globalThis.fetch;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/summary')) await held;
      return stubbed(input, init);
    });
    renderDashboard();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.map((call) => call.path)).not.toContain(chartPath);
    release();
    expect(await screen.findByText('9')).toBeTruthy();
    await waitFor(() => expect(calls.filter((call) => call.path === chartPath)).toHaveLength(1));
    expect(await screen.findByText('No money moved in the last 30 days.')).toBeTruthy();
  });
});

import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success } from '../../../test/render.tsx';
import { OverviewPage } from './OverviewPage.tsx';

const overview = { storesPending: 1, withdrawalsPending: 0, withdrawalsProcessing: 0, identityReviewsWaiting: 0, callbacksFailing: 3, reconciliationOpen: 0 };
const days = Array.from({ length: 30 }, (_, index) => ({ day: new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10), paidCount: 0, paidVolume: 0, failedCount: 0 }));

const page = (chart: unknown) => ({
  'GET /v1/operator/overview': success(overview),
  'GET /v1/operator/approvals': success([]),
  'GET /v1/operator/today': success({ date: '2026-11-27', dailyFundingCap: 1000, operators: [] }),
  'GET /v1/operator/charts': success(chart),
});

describe("the operator console's overview: payments and callbacks", () => {
  beforeEach(signIn);

  it('shows payment volume, the failure rate per day and the callback backlog', async () => {
    const series = days.map((day, index) => (index === 29 ? { ...day, paidCount: 3, paidVolume: 120.5, failedCount: 1 } : day));
    stubApi(page({ days: 30, series: [{ currency: 'USD', days: series, paidCount: 3, paidVolume: 120.5, failedCount: 1, successRate: 0.75 }], callbackBacklog: 7, callbacksFailing: 3 }));
    renderPage(<OverviewPage />, { path: '/ops' });
    const backlog = await screen.findByText(/Callback backlog:/);
    expect(backlog.textContent).toBe('Callback backlog: 7 waiting to be sent now, 3 failing.');
    const volume = screen.getByRole('region', { name: 'Payments per day, last 30 days' });
    expect(within(volume).getByText('US$ 120.50 in 3 paid payments (UTC days). 3 paid of 4 attempts: success rate 75%.')).toBeTruthy();
    // Under the section's own heading, the charts' headings are one level down.
    expect(screen.getByRole('heading', { level: 2, name: 'Payments and callbacks' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Failure rate per day' })).toBeTruthy();
    const failures = screen.getByRole('region', { name: 'Failure rate per day' });
    expect(within(failures).getByText('1 of 4 pay attempts refused over the last 30 days: 25%.')).toBeTruthy();
    const rows = within(within(failures).getByRole('table')).getAllByRole('row');
    // A day with no attempt has no rate; the last day refused 1 of 4.
    expect(rows[1]!.textContent).toBe('Oct 29–');
    expect(rows.at(-1)!.textContent).toBe('Nov 2725%');
  });

  it('says "No payments in the last 30 days" when there were none', async () => {
    stubApi(page({ days: 30, series: [], callbackBacklog: 0, callbacksFailing: 0 }));
    renderPage(<OverviewPage />, { path: '/ops' });
    expect(await screen.findByText('No payments in the last 30 days.')).toBeTruthy();
  });
});

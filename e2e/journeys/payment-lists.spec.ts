import type { Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { expectAccessible, screenshotsAtWidths } from '../look.ts';
import { demoStoreCredentials, loginViaApi } from '../wallet.ts';

/*
 * The merchant's payments lists at scale (issue 20, item 11): a page of 25 with "Load more",
 * counters from the server over every payment, and the store tab's search and filters.
 * Demo bob's store takes 26 new payments through the gateway API first.
 */

// The payments' own table or list (the charts above them carry screen-reader tables of their days).
const rows = (page: Page) =>
  page.locator('[role="region"][aria-label="Payments of this store, newest first"] table tbody tr:visible, ul[aria-label="Payments of this store, newest first"] > li:visible');
const counter = (page: Page, label: string) => page.getByRole('article', { name: label, exact: true }).locator('p').first();

test('a store with many payments: 25 at a time, counters over all, search by order ID and e-mail, status and date filters', async ({ page, request }) => {
  test.slow();
  const store = await demoStoreCredentials(request);
  const token = await loginViaApi(request, demo.bob.email, DEMO_PASSWORD);
  const headers = { storeId: store.storeId, storeKey: store.storeKey };
  const tag = uniqueId('lst');
  for (let i = 0; i < 26; i++) {
    const created = await request.post('/v1/payment/web-pay', {
      headers,
      data: {
        orderId: `${tag}-${i}`,
        currency: 'USD',
        amount: 3.21,
        customerName: 'List Customer',
        customerEmail: i === 7 ? `${tag}@Example.test` : 'list@example.test',
        customerPhone: '+15550100000',
        customerAddress: '1 List Street',
        productName: 'Widget',
        cancelUrl: 'https://shop.example.test/cart',
        valueA: 'x',
      },
    });
    expect(created.status(), await created.text()).toBe(200);
  }
  type Totals = { all: number; succeeded: number; initiated: number; failed: number };
  const readTotals = async () =>
    ((await (await request.get(`/v1/payment/store/${store.storeId}/summary`, { headers: { Authorization: token } })).json()).data as Totals);
  let totals = await readTotals();
  expect(totals.all).toBeGreaterThanOrEqual(26);

  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await page.goto(`/payment-gateway/${store.storeId}`);
  // Other journeys pay the demo store meanwhile: the page's counters are compared with the
  // store's totals at a moment nothing moved (the same totals read before and after the page's).
  await expect(async () => {
    await page.reload();
    await expect(rows(page)).toHaveCount(25);
    const before = await readTotals();
    const shown = { all: await counter(page, 'All Payments').textContent(), initiated: await counter(page, 'Initiated').textContent() };
    const after = await readTotals();
    expect(after).toEqual(before);
    expect(shown).toEqual({ all: String(before.all), initiated: String(before.initiated) });
    totals = before;
  }).toPass({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows(page)).toHaveCount(Math.min(50, totals.all));
  await expectAccessible(page);

  // Search by order ID (keyboard: type and Enter), then by customer e-mail in another case.
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(`${tag}-3`);
  await search.press('Enter');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${tag}-3`);
  // The counters stay the store's totals (others may have paid it since), not the search's 1.
  expect(Number(await counter(page, 'All Payments').textContent())).toBeGreaterThanOrEqual(totals.all);
  await search.fill(`${tag}@example.TEST`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${tag}-7`);
  await screenshotsAtWidths(page, 'store-payments-search');

  // Status: Succeeded shows only paid ones; a day range before any payment shows none.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Status', { exact: true }).selectOption('success');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('table').getByText(tag)).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption('');
  await page.getByLabel('To', { exact: true }).fill('2001-01-01');
  await expect(page.getByText('No payments match this search.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Clear' }).click();
  // The unfiltered list comes back with the pages it had loaded.
  await expect(rows(page)).toHaveCount(Math.min(50, totals.all));
  await screenshotsAtWidths(page, 'store-payments-paged');

  // Payment History pages too, with the account's counters.
  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
  await expect(page.locator('table tbody tr:visible')).toHaveCount(25);
  await expect(page.getByRole('button', { name: 'Load more' })).toBeVisible();
});

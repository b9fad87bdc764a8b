import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { expectAccessible, screenshotsAtWidths } from '../look.ts';
import { demoStoreCredentials } from '../wallet.ts';

/*
 * Exports in the browser (issue 26): "Export CSV" downloads the list's CSV with the session
 * (the token travels in a header, the file is saved from memory), and a transaction's proof
 * downloads as JSON. Screenshots of the open export form at desktop and phone width.
 */

/** The saved file's lines, its UTF-8 byte-order mark checked and taken off. */
async function csvLines(download: Download): Promise<string[]> {
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8').split('\r\n');
}

async function exportCsv(page: Page, range: { from?: string; to?: string } = {}): Promise<Download> {
  await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
  // Only the export form's dates (a store's Payments tab has a From/To filter too). The form
  // keeps what was typed last time it was open: both dates are set each time.
  const form = page.getByRole('form', { name: /as CSV$/ });
  await form.getByLabel('From', { exact: true }).fill(range.from ?? '');
  await form.getByLabel('To', { exact: true }).fill(range.to ?? '');
  const downloading = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Download CSV' }).click();
  return downloading;
}

test('demo alice downloads her transactions as CSV, a date range checked first, and a proof', async ({ page }) => {
  await loginThroughForm(page, demo.alice.email, DEMO_PASSWORD);
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'All Transactions' })).toBeVisible();

  // A range that ends before it starts is refused under 'To', with the keyboard alone.
  await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
  await expect(page.getByLabel('From', { exact: true })).toBeFocused();
  await page.getByLabel('From', { exact: true }).fill('2026-11-10');
  await page.getByLabel('To', { exact: true }).fill('2026-11-01');
  await page.getByLabel('To', { exact: true }).press('Enter');
  await expect(page.getByText("'To' must be on or after 'From'")).toBeVisible();
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'export-transactions-form');
  await page.getByLabel('To', { exact: true }).press('Escape');
  await expect(page.getByRole('button', { name: 'Export CSV', exact: true })).toBeFocused();

  const download = await exportCsv(page);
  expect(download.suggestedFilename()).toMatch(/^transactions-\d+\.csv$/);
  const lines = await csvLines(download);
  expect(lines[0]).toBe('Tnx At (UTC),TnxId,Purpose,Type,Amount,Fee,Counterparty accounts,created_at_iso,currency,amount_cents,fee_cents,net_cents');
  // The demo's opening balance, as the list shows it and in cents.
  expect(lines.find((line) => line.includes('Demo opening balance'))).toMatch(/,Demo opening balance,Credit,"US\$ 5,000\.00",US\$ 0\.00,.*,USD,500000,0,500000$/);
  await expect(page.getByText(/^Downloaded transactions-\d+\.csv$/)).toBeVisible();

  // A range in the future holds only the header line.
  await page.getByRole('button', { name: 'Close' }).click();
  const none = await csvLines(await exportCsv(page, { from: '2099-01-01' }));
  expect(none.filter(Boolean)).toHaveLength(1);

  // The proof of the opening balance: saved as JSON once sealed, or "not sealed yet" in the sealer's first minute.
  const row = page.getByRole('row').filter({ hasText: 'Demo opening balance' });
  await row.getByRole('button', { name: /^Download proof/ }).click();
  await expect(page.getByText(/^Proof saved as proof-.+\.json$|not sealed yet/)).toBeVisible();

  // The other lists with an export: the same control in their headers.
  for (const [path, name, button] of [
    ['/withdraw/bank', 'export-withdrawals-form', 'Export CSV'],
    ['/payment-request', 'export-payment-requests-form', 'Export payments CSV'],
  ] as const) {
    await page.goto(path);
    await page.getByRole('button', { name: button, exact: true }).click();
    await expect(page.getByLabel('From', { exact: true })).toBeFocused();
    await expectAccessible(page);
    await screenshotsAtWidths(page, name);
  }
});

test('demo bob downloads Payment History and his store\'s payments as CSV', async ({ page, request }) => {
  const store = await demoStoreCredentials(request);
  const orderId = uniqueId('exp');
  const created = await request.post('/v1/payment/web-pay', {
    headers: { storeId: store.storeId, storeKey: store.storeKey },
    data: {
      orderId,
      currency: 'USD',
      amount: 12.34,
      customerName: 'Export Customer',
      customerEmail: 'export@example.test',
      customerPhone: '+15550100000',
      customerAddress: '1 Export Street',
      productName: 'Widget',
      cancelUrl: 'https://shop.example.test/cart',
      valueA: 'x',
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const paymentId = (await created.json()).data.paymentId as string;
  const header =
    'Date (UTC),Amount,Status,Refund state,Refunded,Fee,Order ID,Customer,Customer email,Method,Source,Transaction ID,Store,Store ID,Payment ID,created_at_iso,paid_at_iso,currency,amount_cents,fee_cents,refunded_cents';

  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const lines = await csvLines(await exportCsv(page, { from: today, to: today }));
  expect(lines[0]).toBe(header);
  const row = lines.find((line) => line.includes(paymentId));
  expect(row).toContain(`,US$ 12.34,initiate,,US$ 0.00,,${orderId},Export Customer,export@example.test,`);
  expect(row).toMatch(/,USD,1234,,0$/);
  await screenshotsAtWidths(page, 'export-payments-form');

  await page.goto(`/payment-gateway/${store.storeId}`);
  const storeLines = await csvLines(await exportCsv(page));
  expect(storeLines[0]).toBe(header);
  expect(storeLines.some((line) => line.includes(paymentId))).toBe(true);
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'export-store-payments-form');
});

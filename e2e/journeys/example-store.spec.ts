import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paymentMessages } from '@kestrel/shared';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, loginThroughForm, screenshot, test } from '../fixtures.ts';

/*
 * The example shop (examples/store, on @kestrel/sdk) against the real server: Buy → the hosted
 * checkout → a test card (or the Kestrel wallet tab) → back at the shop, where the order shows
 * "Paid" only once Kestrel's signed callback has been verified by the shop; its admin page
 * refunds the order through the SDK and shows it refunded once the refund callback is verified.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shopPort = Number(process.env.E2E_SHOP_PORT ?? (Number(process.env.E2E_PORT ?? 3210) + 1));
const shopUrl = `http://localhost:${shopPort}`;
let shop: ChildProcess | undefined;
/** The store the shop made for itself on the demo merchant bob's account (it prints it on start). */
let shopStoreId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  // The shop imports the SDK as a merchant would: built to ESM.
  execFileSync('npm', ['run', 'build', '-w', 'packages/sdk'], { cwd: root, stdio: 'ignore' });
  shop = spawn(process.execPath, ['server.mjs'], {
    cwd: path.join(root, 'examples/store'),
    env: { ...process.env, KESTREL_URL: baseURL, SHOP_PORT: String(shopPort), SHOP_URL: shopUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  shop.stderr?.on('data', (chunk) => (errors += String(chunk)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example shop did not start: ${errors}`)), 60_000);
    shop!.stdout?.on('data', (chunk) => {
      const started = /Example shop on \S+ \(store (\S+)\)/.exec(String(chunk));
      if (started) {
        shopStoreId = started[1]!;
        clearTimeout(timer);
        resolve();
      }
    });
    shop!.on('exit', (code) => reject(new Error(`the example shop exited (${code}): ${errors}`)));
  });
});

test.afterAll(() => {
  shop?.kill();
});

test('a customer buys at the example shop, pays by test card on the hosted checkout, and the order is Paid from the verified callback', async ({ page }) => {
  await page.goto(shopUrl);
  await expect(page.getByRole('heading', { name: 'Example shop' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'example-store-shop-390');
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, 'example-store-shop');
  await page.getByRole('button', { name: 'Buy Brass bike bell' }).click();

  await expect(page).toHaveURL(/\/web-pay\//);
  await expect(page.getByTestId('checkout-amount')).toHaveText('US$ 12.50');
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('MM/YY').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Card holder name').fill('Dana Doe');
  await page.getByRole('button', { name: 'Pay US$ 12.50' }).click();
  await expect(page.getByText(paymentMessages.success)).toBeVisible();

  // The checkout sends the customer to the shop's signed return address; the shop verifies it and shows the order.
  await expect(page).toHaveURL(new RegExp(`^${shopUrl}/orders/shop-`), { timeout: 15_000 });
  await expect(page.getByTestId('order-status')).toHaveText('Paid', { timeout: 15_000 });
  await screenshot(page, 'example-store-paid');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'example-store-paid-390');
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await expect(page.getByRole('row', { name: /Brass bike bell/ }).first()).toContainText('Paid');
});

test("the shop's admin refunds part of the card-paid order, then the rest; each signed refund callback updates it", async ({ page }) => {
  await page.goto(`${shopUrl}/admin`);
  // The bell bought by card in the first journey, found by its order id (the row's name changes with its status).
  const orderId = await page.getByRole('row', { name: /\$12\.50 Paid/ }).first().getByRole('link').textContent();
  const row = page.getByRole('row', { name: new RegExp(`^${orderId} `) });
  await expect(row.getByTestId('admin-status')).toHaveText('Paid');
  await row.getByRole('textbox').fill('2.50');
  await row.getByRole('button', { name: /^Refund/ }).click();
  await expect(page).toHaveURL(`${shopUrl}/admin`);
  await expect(row.getByTestId('admin-status')).toHaveText(/^Partially refunded\s*\$2\.50 refunded$/, { timeout: 15_000 });
  await screenshot(page, 'example-store-admin-partial');
  // An empty amount refunds what is left.
  await row.getByRole('button', { name: /^Refund/ }).click();
  await expect(row.getByTestId('admin-status')).toHaveText(/^Refunded\s*\$12\.50 refunded$/, { timeout: 15_000 });
  await expect(row.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'example-store-admin-refunded-390');
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, 'example-store-admin-refunded');
});

test('the same with the Kestrel wallet tab', async ({ page }) => {
  await page.goto(shopUrl);
  await page.getByRole('button', { name: 'Buy LED light set' }).click();
  await expect(page).toHaveURL(/\/web-pay\//);
  await page.getByRole('tab', { name: 'Kestrel' }).click();
  await page.getByLabel('Email').fill(demo.alice.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByLabel('TPIN').fill(DEMO_TPIN);
  await page.getByRole('button', { name: 'Pay US$ 24.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${shopUrl}/orders/shop-`), { timeout: 15_000 });
  await expect(page.getByTestId('order-status')).toHaveText('Paid', { timeout: 15_000 });
});

test("the store's Integration tab shows the SDK snippet with the store's own ids, beside curl", async ({ page }) => {
  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await page.goto(`/payment-gateway/${shopStoreId}`);
  await page.getByRole('tab', { name: 'Integration' }).click();
  await expect(page.getByRole('heading', { name: 'With the SDK (@kestrel/sdk)' })).toBeVisible();
  const create = page.getByLabel('SDK: create a payment');
  await expect(create).toContainText(`storeId: '${shopStoreId}'`);
  await expect(create).toContainText('kestrel.payments.create(');
  await expect(page.getByLabel('SDK: verify a callback')).toContainText('webhooks.verify(rawBody');
  await expect(page.getByLabel('curl: create a payment')).toContainText(`storeId: ${shopStoreId}`);
  await page.getByRole('heading', { name: 'With the SDK (@kestrel/sdk)' }).scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: 'screenshots/example-store-integration-sdk-1366.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'With the SDK (@kestrel/sdk)' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/example-store-integration-sdk-390.png' });
});

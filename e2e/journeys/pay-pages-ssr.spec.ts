import type { APIRequestContext, ConsoleMessage, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, test, uniqueId } from '../fixtures.ts';
import { screenshotWidths } from '../viewports.ts';
import { demoStoreCredentials, loginViaApi } from '../wallet.ts';

/*
 * Issue 20, item 15: the pay pages come from the server with the payment in their HTML, and
 * React takes that markup over without a mismatch: the amount is in the document before any
 * script runs, no hydration error is logged, and the page works once hydrated.
 */

async function checkoutPath(request: APIRequestContext, productName: string) {
  const response = await request.post('/v1/payment/web-pay', {
    headers: await demoStoreCredentials(request),
    data: { orderId: uniqueId('ssr'), currency: 'USD', amount: 18.25, customerName: 'Dana Doe', customerEmail: 'dana@example.com', customerPhone: '+15550100009', customerAddress: '1 Main Street', productName, cancelUrl: 'https://bobs-bikes.example/cart' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return new URL(((await response.json()) as { redirectUrl: string }).redirectUrl).pathname;
}

async function linkPath(request: APIRequestContext) {
  const token = await loginViaApi(request, demo.alice.email, DEMO_PASSWORD);
  const account = await request.get(`/v1/account/${demo.alice.userName}`, { headers: { Authorization: token } });
  const { accountNumber } = (await account.json()).data as { accountNumber: string };
  const response = await request.post('/v1/payment-request/create', {
    headers: { Authorization: token },
    data: { paymentPurpose: 'Guitar lesson', reference: 'SSR-1', tpin: DEMO_TPIN, accountNumber, amount: { type: 'fixed', currency: 'USD', value: 7.5 }, isUseLimit: false, paymentMethods: ['Card', 'Kestrel'], expiresAt: '2099-06-30T12:00:00.000Z' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return new URL(((await response.json()) as { data: { pRequestURL: string } }).data.pRequestURL).pathname;
}

/** Console errors and page errors while the page loads and hydrates. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || /hydrat/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('the checkout paints its amount with the HTML and hydrates without a mismatch @phone', async ({ page, request }) => {
  const path = await checkoutPath(request, 'Water bottle <b>&</b> "cap"');
  const html = await (await request.get(path)).text();
  expect(html).toContain('US$ 18.25');
  expect(html).toContain('Water bottle &lt;b&gt;&amp;&lt;/b&gt; &quot;cap&quot;');

  const errors = collectErrors(page);
  await page.goto(path);
  await expect(page.getByTestId('checkout-amount')).toHaveText('US$ 18.25');
  await expect(page.getByTestId('checkout-product')).toHaveText('Water bottle <b>&</b> "cap"');
  // Hydrated: the tabs answer.
  await page.getByRole('tab', { name: 'Kestrel' }).click();
  await expect(page.getByRole('tab', { name: 'Kestrel' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Cards' }).click();
  expect(errors).toEqual([]);
  await screenshotWidths(page, 'pay-ssr-checkout');
});

test('the link pay page paints its amount with the HTML and hydrates without a mismatch (its date becomes local) @phone', async ({ page, request }) => {
  const path = await linkPath(request);
  const html = await (await request.get(path)).text();
  expect(html).toContain('US$ 7.50');
  expect(html).toContain('Guitar lesson');
  expect(html).toMatch(/June 30, 2099 at 12:00\s?PM UTC/);

  const errors = collectErrors(page);
  await page.goto(path);
  await expect(page.getByTestId('link-amount')).toHaveText('US$ 7.50');
  // After hydration the expiry is in the visitor's own zone, without "UTC".
  await expect(page.getByText(/Link valid until/)).not.toContainText('UTC');
  await page.getByRole('tab', { name: 'Kestrel' }).click();
  await expect(page.getByRole('tab', { name: 'Kestrel' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Cards' }).click();
  expect(errors).toEqual([]);
  await screenshotWidths(page, 'pay-ssr-link');
});

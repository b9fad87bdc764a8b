import { paymentMessages, storeMessages } from '@kestrel/shared';
import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { expect, loginThroughForm, registerViaApi, screenshot, test, uniqueId, uniquePhone } from '../fixtures.ts';

/*
 * The merchant side of the gateway in the browser: a new user creates a store with a logo and
 * documents, sees it Pending, the demo operator approves it (API), the owner opens it, copies
 * its credentials, follows the Integration tab's curl to create a payment, the payment is paid
 * by card through the API after a declined attempt, and the owner sees it in both lists and on
 * the details page with the failed attempt.
 */

const TPIN = '1357';
const OPERATOR = { email: 'ops@example.com', password: 'kestrel-demo' };

/** A small one-colour PNG, made by sharp (the library the server re-encodes uploads with). */
function png([r, g, b]: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r, g, b } } }).png().toBuffer();
}

async function merchantViaApi(request: APIRequestContext) {
  const user = await registerViaApi(request);
  const id = uniqueId('shop');
  const response = await request.post('/v1/account/create', {
    headers: { Authorization: user.token },
    data: {
      users: [{ userId: user.userId, tpin: TPIN }],
      accountHolderName: `Morgan Vale-${id}`,
      userName: id,
      accountEmail: `${id}@shop.example.test`,
      accountPhone: uniquePhone(),
      accountType: 'business',
      businessName: `Vale Cycles ${id}`,
      companyName: 'Vale Cycles LLC',
      identity: { type: 'tradeLicense', number: `E2E-${id}` },
      dateOfBirth: '1988-02-11',
      address: { street: '5 Gear Lane', city: 'Austin', state: 'TX', zipCode: '73301', country: 'US' },
      balance: [{ currency: 'USD' }],
      notificationPreference: 'email',
      occupation: 'Shop owner',
      annualIncome: '90000',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { ...user, accountEmail: `${id}@shop.example.test` };
}

/** Runs a curl command as the Integration tab shows it (method, URL, -H headers, -d body). */
async function runCurl(request: APIRequestContext, command: string, replacements: Record<string, string> = {}) {
  let text = command.replace(/\\\n/g, ' ');
  for (const [from, to] of Object.entries(replacements)) text = text.replaceAll(from, to);
  const url = /curl(?: -X (\w+))? (\S+)/.exec(text)!;
  const headers = Object.fromEntries([...text.matchAll(/-H '([^:]+): ([^']*)'/g)].map((match) => [match[1]!, match[2]!]));
  const body = /-d '([\s\S]*?)'\s*$/.exec(text.trim())?.[1];
  return request.fetch(url[2]!, { method: url[1] ?? 'GET', headers, data: body });
}

test('a merchant creates a store, gets it approved, takes a card payment and sees it @phone', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const merchant = await merchantViaApi(request);
  await loginThroughForm(page, merchant.email, merchant.password);

  await page.goto('/payment-gateway');
  await expect(page.getByRole('link', { name: storeMessages.noActiveStore })).toBeVisible();
  await page.getByRole('link', { name: '+ New Store' }).click();
  await expect(page).toHaveURL(/\/payment-gateway\/store\/new$/);

  // The spec's messages for an empty form.
  await page.getByRole('button', { name: 'Create Store' }).click();
  await expect(page.getByText(storeMessages.storeNameRequired)).toBeVisible();
  await expect(page.getByText(storeMessages.logoRequired)).toBeVisible();
  await expect(page.getByText(storeMessages.documentsRequired)).toBeVisible();

  const storeName = `Vale Cycles Online ${uniqueId('')}`;
  await page.getByLabel('Store Name').fill(storeName);
  await page.getByLabel('Store URL').fill('https://vale-cycles.example');
  await page.getByLabel('Callback URL').fill('https://vale-cycles.example/kestrel/callback');
  await page.getByLabel('TPIN').fill('12');
  await page.getByRole('button', { name: 'Create Store' }).click();
  await expect(page.getByText(storeMessages.tpinDigits)).toBeVisible();
  await page.getByLabel('TPIN').fill(TPIN);
  await page.getByLabel('Store Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await png([13, 148, 136]) });
  await page.getByLabel('Business documents').setInputFiles([
    { name: 'licence.png', mimeType: 'image/png', buffer: await png([90, 90, 90]) },
    { name: 'tax.png', mimeType: 'image/png', buffer: await png([200, 200, 200]) },
  ]);
  await expect(page.getByText(storeMessages.logoRequired)).toBeHidden();
  await expect(page.getByText(storeMessages.documentsRequired)).toBeHidden();
  await screenshot(page, 'gateway-new-store');
  await page.getByRole('button', { name: 'Create Store' }).click();
  await expect(page.getByText(storeMessages.created)).toBeVisible();
  await expect(page).toHaveURL(/\/payment-gateway$/);

  await page.getByLabel('Status').selectOption('Pending');
  const card = page.getByRole('listitem').filter({ hasText: storeName });
  await expect(card.getByText('Pending', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: `Open ${storeName}` }).click();
  await expect(page.getByText(storeMessages.onlyApproved)).toBeVisible();
  await screenshot(page, 'gateway-store-pending');

  // The operator approves it (API).
  const stores = await request.get(`/v1/payment_gateway_store/account/${merchant.accountEmail}`, { headers: { Authorization: merchant.token } });
  const storeId = ((await stores.json()).data.stores as { storeId: string; storeName: string }[]).find((store) => store.storeName === storeName)!.storeId;
  const login = await request.post('/v1/auth/login', { data: OPERATOR });
  const operatorToken = (await login.json()).data.token as string;
  expect((await request.post(`/v1/operator/stores/${storeId}/approve`, { headers: { Authorization: operatorToken }, data: { reason: 'Documents checked' } })).status()).toBe(200);

  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('Approved');
  await page.getByRole('button', { name: `Open ${storeName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-gateway/${storeId}$`));
  await page.getByRole('button', { name: 'Copy Store ID' }).click();
  await expect(page.getByText(storeMessages.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(storeId);
  await expect(page.getByText(paymentMessages.noPayments, { exact: true })).toBeVisible();

  // Follow the Integration tab's curl to create a payment.
  await page.getByRole('tab', { name: 'Integration' }).click();
  const createCurl = await page.getByLabel('curl: create a payment').innerText();
  await screenshot(page, 'gateway-integration');
  const created = await runCurl(request, createCurl);
  expect(created.status(), await created.text()).toBe(200);
  const paymentId = (await created.json()).data.paymentId as string;

  // Pay it by card through the API: a declined card first, then a good one.
  const payCurl = await page.getByLabel('curl: pay a payment by card').innerText();
  const declined = await runCurl(request, payCurl, { PAYMENT_ID: paymentId, '4242 4242 4242 4242': '4000 0000 0000 0002' });
  expect(declined.status()).toBe(402);
  const paid = await runCurl(request, payCurl, { PAYMENT_ID: paymentId });
  expect(paid.status(), await paid.text()).toBe(200);

  await page.getByRole('tab', { name: 'Payments' }).click();
  await page.reload();
  await expect(page.getByRole('link', { name: 'US$ 25.50' }).first()).toBeVisible();
  await screenshot(page, 'gateway-store-payments');

  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
  await page.getByRole('link', { name: 'US$ 25.50' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/payment/details/${paymentId}$`));
  await expect(page.getByRole('heading', { name: 'Failed Attempts' })).toBeVisible();
  // Phones show the attempts as a list and desktops as a table: one of the two is visible.
  await expect(page.getByText('Your card was declined.').filter({ visible: true })).toBeVisible();
  await expect(page.getByText('424242******4242')).toBeVisible();
  await expect(page.getByText(storeId)).toBeVisible();
  await screenshot(page, 'gateway-payment-details');
});

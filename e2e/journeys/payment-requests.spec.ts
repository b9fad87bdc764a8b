import { checkoutMessages, messages, paymentMessages, paymentRequestLabels, paymentRequestMessages as m } from '@kestrel/shared';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, loginThroughForm, screenshot, test, uniqueId } from '../fixtures.ts';
import { expectAccessible } from '../look.ts';
import { LinkPayPage, NewPaymentRequestForm } from '../pages/payment-requests.page.ts';
import { holderViaApi, loginViaApi, TPIN } from '../wallet.ts';

/*
 * Payment-request links as their owner and their payers see them: demo alice makes a fixed and
 * a customer-choosen link in the portal; a visitor with no portal session pays one by test card
 * and the other from demo bob's wallet; alice finds both in 'Successed' and a declined card in
 * 'Failed'; a disabled link, a used-up limit and an expired link each show their own page.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const pathOf = (url: string) => new URL(url).pathname;

/** A visitor's page in a browser context of its own (no portal cookies), on the same device as the test's. */
async function visitorPage(browser: Browser): Promise<Page> {
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, baseURL } = test.info().project.use;
  const context = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, baseURL });
  return context.newPage();
}

/** A link made through the API by demo alice (the journeys below use the form where the form is the point). */
async function aliceLinkViaApi(request: APIRequestContext, extra: Record<string, unknown> = {}) {
  const token = await loginViaApi(request, demo.alice.email, DEMO_PASSWORD);
  const account = await request.get(`/v1/account/${demo.alice.userName}`, { headers: { Authorization: token } });
  const { accountNumber } = (await account.json()).data as { accountNumber: string };
  const response = await request.post('/v1/payment-request/create', {
    headers: { Authorization: token },
    data: {
      paymentPurpose: `Lesson ${uniqueId('api')}`,
      reference: 'API-1',
      tpin: DEMO_TPIN,
      accountNumber,
      amount: { type: 'fixed', currency: 'USD', value: 4 },
      isUseLimit: false,
      paymentMethods: ['Card', 'Kestrel'],
      ...extra,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const data = (await response.json()).data as { _id: string; pRequestURL: string };
  return { id: data._id, path: pathOf(data.pRequestURL) };
}

async function payByCard(visitor: Page, number: string, email = 'dana@example.com'): Promise<void> {
  const pay = new LinkPayPage(visitor);
  await visitor.getByLabel('Your email').fill(email);
  await pay.fillCard({ number });
  await visitor.getByRole('button', { name: /^Pay/ }).click();
}

test('alice makes a fixed and a custom link; a visitor pays one by card and one from a wallet; alice sees them @phone', async ({ page, browser }) => {
  await loginThroughForm(page, demo.alice.email, DEMO_PASSWORD);
  await page.goto('/payment-request');
  await expect(page.getByRole('heading', { name: 'Payment Request', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: m.newRequest }).click();

  const form = new NewPaymentRequestForm(page);
  await expect(form.form).toBeVisible();
  await form.submit.click();
  for (const message of [m.required(paymentRequestLabels.paymentPurpose), m.required(paymentRequestLabels.reference), m.required(paymentRequestLabels.amount), m.required(paymentRequestLabels.tpin)]) {
    await expect(form.error(message)).toBeVisible();
  }
  await form.form.getByLabel('Customer choosen').check();
  await form.form.getByLabel('Limit the uses').check();
  await form.field(paymentRequestLabels.tpin).fill('48');
  await form.submit.click();
  for (const message of [m.required(paymentRequestLabels.minimumAmount), m.required(paymentRequestLabels.maximumAmount), m.useLimitRequired, m.tpinDigits]) {
    await expect(form.error(message)).toBeVisible();
  }
  await form.form.getByLabel('Card', { exact: true }).uncheck();
  await form.form.getByLabel('Kestrel', { exact: true }).uncheck();
  await form.submit.click();
  await expect(form.error(m.methodsRequired)).toBeVisible();
  await screenshot(page, 'payment-request-new');
  await expectAccessible(page);

  // The fixed link, with a customer named on it.
  await form.goto();
  const purpose = `Guitar lesson ${uniqueId('pr')}`;
  await form.fill({ purpose, reference: 'INV-12', fixed: '12', customer: { name: 'Dana Doe', email: 'dana@example.com', phone: '+15550100009' }, tpin: DEMO_TPIN });
  const fixedUrl = await form.create();
  await expect(page.getByRole('heading', { name: purpose, level: 1 })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the payment link' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download QR' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.svg$/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText(m.copied, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fixedUrl);
  await expect(page.getByRole('switch', { name: 'Active' })).toHaveAttribute('aria-checked', 'true');
  await screenshot(page, 'payment-request-details-new');

  // The custom link: US$ 5.00 to US$ 50.00, both methods.
  await form.goto();
  const customPurpose = `Donation ${uniqueId('pr')}`;
  await form.fill({ purpose: customPurpose, reference: 'DON-1', range: { minimum: '5', maximum: '50' }, tpin: DEMO_TPIN });
  const customUrl = await form.create();
  await expect(page.getByText(m.notAvailable).first()).toBeVisible();

  // The list: both links, a click on a URL copies it.
  await page.goto('/payment-request');
  const row = page.getByRole('button', { name: `Copy payment link ${customUrl}` }).filter({ visible: true });
  await row.click();
  await expect(page.getByText(m.copied, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Copy payment link ${fixedUrl}` }).filter({ visible: true })).toBeVisible();
  await screenshot(page, 'payment-request-list');
  await expectAccessible(page);

  // A visitor pays the fixed link by test card.
  const visitor = await visitorPage(browser);
  const pay = new LinkPayPage(visitor);
  await visitor.goto(pathOf(fixedUrl));
  await expect(visitor.getByTestId('link-amount')).toHaveText('US$ 12.00');
  await expect(visitor.getByRole('tab', { name: 'Cards' })).toHaveAttribute('aria-selected', 'true');
  await expect(visitor.getByRole('navigation')).toHaveCount(0);
  await visitor.getByRole('button', { name: 'Pay US$ 12.00' }).click();
  for (const message of [m.emailRequired, paymentMessages.cardNumberRequired, paymentMessages.expiryRequired, paymentMessages.cvcRequired, paymentMessages.cardHolderRequired]) {
    await expect(visitor.getByText(message, { exact: true })).toBeVisible();
  }
  await screenshot(visitor, 'payment-request-pay-card');
  await expectAccessible(visitor);
  await payByCard(visitor, '4242424242424242');
  await expect(pay.heading(m.paid)).toBeVisible();
  await screenshot(visitor, 'payment-request-paid');

  // The custom link: the amount's rules, a declined card, then bob's wallet.
  await visitor.goto(pathOf(customUrl));
  await expect(visitor.getByText(/Choose an amount between US\$ 5\.00 and US\$ 50\.00/)).toBeVisible();
  const amount = visitor.getByLabel('Amount (USD)');
  await visitor.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(visitor.getByText(m.amountRequired, { exact: true })).toBeVisible();
  await amount.fill('500');
  await visitor.getByRole('button', { name: 'Pay US$ 500.00' }).click();
  await expect(visitor.getByText('Amount must be between US$ 5.00 and US$ 50.00', { exact: true })).toBeVisible();
  await amount.fill('6');
  await payByCard(visitor, '4000000000000002');
  await expect(visitor.getByText('Your card was declined.')).toBeVisible();

  await amount.fill('7.50');
  await visitor.getByRole('tab', { name: 'Kestrel' }).click();
  await visitor.getByLabel('Email', { exact: true }).fill(demo.bob.email);
  await visitor.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await visitor.getByRole('button', { name: 'Login' }).click();
  const tpin = visitor.getByLabel('TPIN');
  await expect(tpin).toBeVisible();
  await visitor.getByRole('button', { name: 'Pay US$ 7.50' }).click();
  await expect(visitor.getByText(checkoutMessages.tpinRequired)).toBeVisible();
  await tpin.fill(DEMO_TPIN);
  await screenshot(visitor, 'payment-request-pay-wallet');
  await visitor.getByRole('button', { name: 'Pay US$ 7.50' }).click();
  await expect(pay.heading(m.paid)).toBeVisible();
  await visitor.context().close();

  // alice: the fixed link's card payment, the custom link's wallet payment and its declined card.
  await page.goto('/payment-request');
  await page.getByRole('link', { name: `Details of ${purpose}` }).filter({ visible: true }).click();
  await expect(page.getByTestId('transaction-count')).toHaveText('1');
  await expect(page.getByRole('tab', { name: 'Successed' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel').getByText('US$ 12.00').filter({ visible: true })).toBeVisible();

  await page.goto('/payment-request');
  await page.getByRole('link', { name: `Details of ${customPurpose}` }).filter({ visible: true }).click();
  await expect(page.getByRole('tabpanel').getByText('US$ 7.50').filter({ visible: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Failed' }).click();
  await expect(page.getByRole('tabpanel').getByText('Your card was declined.').filter({ visible: true })).toBeVisible();
  await screenshot(page, 'payment-request-details');
  await expectAccessible(page);
});

test('a disabled link, a used-up limit and an expired link each refuse the visitor; the owner turns them back on', async ({ page, browser, request }) => {
  const disabled = await aliceLinkViaApi(request);
  const limited = await aliceLinkViaApi(request, { isUseLimit: true, useLimit: 1, amount: { type: 'fixed', currency: 'USD', value: 3 } });
  const expiring = await aliceLinkViaApi(request, { expiresAt: new Date(Date.now() + 4000).toISOString() });

  await loginThroughForm(page, demo.alice.email, DEMO_PASSWORD);
  const visitor = await visitorPage(browser);
  const pay = new LinkPayPage(visitor);

  // Disable: the switch moves once the server agrees; the visitor is refused.
  await page.goto(`/payment-request/details/${disabled.id}`);
  const toggle = page.getByRole('switch', { name: 'Active' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await visitor.goto(disabled.path);
  await expect(pay.heading(m.disabled)).toBeVisible();
  await screenshot(visitor, 'payment-request-disabled');
  // A change the server does not accept leaves the switch where it was.
  await page.route('**/v1/payment-request/update/**', (route) => route.abort('connectionreset'));
  await toggle.click();
  await expect(page.getByText(m.statusUpdateFailed, { exact: true })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await page.unroute('**/v1/payment-request/update/**');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await visitor.reload();
  await expect(visitor.getByRole('button', { name: 'Pay US$ 4.00' })).toBeVisible();

  // Limit 1: one payment, then 'Limit Exceeded!'; the owner raises it and the link takes payments again.
  // A second visitor opens the link before the first pays; their later attempt is refused and the page says why.
  const late = await visitorPage(browser);
  await late.goto(limited.path);
  await expect(late.getByRole('button', { name: 'Pay US$ 3.00' })).toBeVisible();
  await visitor.goto(limited.path);
  await payByCard(visitor, '5555555555554444');
  await expect(pay.heading(m.paid)).toBeVisible();
  await payByCard(late, '4242424242424242');
  await expect(late.getByRole('heading', { name: m.limitExceeded })).toBeVisible();
  await late.context().close();
  await visitor.reload();
  await expect(pay.heading(m.limitExceeded)).toBeVisible();
  await expect(visitor.getByText(m.limitExceededHint)).toBeVisible();
  await screenshot(visitor, 'payment-request-limit');

  await page.goto(`/payment-request/details/${limited.id}`);
  await expect(page.getByTestId('remaining-limit')).toHaveText(m.remainingTimes(0));
  await page.getByRole('button', { name: 'Edit remaining limit' }).click();
  const limitInput = page.getByPlaceholder(m.limitPlaceholder);
  await expect(limitInput).toHaveAttribute('min', '0');
  await limitInput.fill('3');
  await page.route('**/v1/payment-request/limit/update/**', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(m.limitUpdateFailed, { exact: true })).toBeVisible();
  await page.unroute('**/v1/payment-request/limit/update/**');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(m.limitUpdated, { exact: true })).toBeVisible();
  await expect(page.getByTestId('remaining-limit')).toHaveText(m.remainingTimes(3));
  await visitor.reload();
  await expect(visitor.getByRole('button', { name: 'Pay US$ 3.00' })).toBeVisible();

  // A link past its expiry shows its own page.
  await expect(async () => {
    await visitor.goto(expiring.path);
    await expect(pay.heading(m.expired)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await screenshot(visitor, 'payment-request-expired');
  await visitor.context().close();
});

test("a stranger's or unknown link id shows 'No details found!' to the owner and a not-found page to a visitor", async ({ page }) => {
  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await page.goto(`/payment-request/details/${uniqueId('nope')}`);
  await expect(page.getByText(m.noDetails)).toBeVisible();
  await page.goto(`/payment-request/${uniqueId('nope')}`);
  await expect(page.getByRole('heading', { name: m.notFound })).toBeVisible();
  // A signed-in user on a public pay page: no portal shell.
  await expect(page.getByRole('navigation')).toHaveCount(0);
});

test('a link that takes only Kestrel wallets opens on the Kestrel tab', async ({ page, request }) => {
  const walletOnly = await aliceLinkViaApi(request, { paymentMethods: ['Kestrel'] });
  await page.goto(walletOnly.path);
  await expect(page.getByRole('tab', { name: 'Kestrel' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Cards' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
});

test('a holder with no links is invited to create one; a wrong TPIN is the server\'s message and makes no link', async ({ page, request }) => {
  const holder = await holderViaApi(request, 'owner');
  await loginThroughForm(page, holder.email, holder.password);
  await page.goto('/payment-request');
  await expect(page.getByText(m.noLinks, { exact: true })).toBeVisible();
  await screenshot(page, 'payment-request-empty');
  await page.getByRole('link', { name: m.createNew, exact: true }).click();

  const form = new NewPaymentRequestForm(page);
  await expect(form.form).toBeVisible();
  await form.fill({ purpose: 'Consulting hour', reference: 'C-1', fixed: '80', useLimit: '2', tpin: '1111' }); // the holder's TPIN is 2468
  await form.submit.click();
  await expect(page.getByText(messages.tpin.wrong).first()).toBeVisible();
  await expect(page).toHaveURL(/\/payment-request\/new$/);
  await expect(form.field(paymentRequestLabels.tpin)).toHaveValue('');

  await form.field(paymentRequestLabels.tpin).fill(TPIN);
  await form.create();
  await expect(page.getByTestId('remaining-limit')).toHaveText(m.remainingTimes(2));
  await page.goto('/payment-request');
  await expect(page.getByText(m.noLinks, { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Copy payment link / })).toHaveCount(1);
});

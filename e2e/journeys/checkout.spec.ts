import { checkoutMessages, paymentMessages } from '@kestrel/shared';
import type { APIRequestContext } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, screenshot, test, uniqueId } from '../fixtures.ts';
import { demoStoreCredentials } from '../wallet.ts';

/*
 * The hosted checkout as a shopper sees it: bob's demo store creates payments through the
 * gateway API (with the credentials its owner reads from the store page's API), a visitor
 * with no portal session pays one by test card and is sent back to the store, alice pays
 * another from her wallet with her TPIN, a paid checkout says so and a bad address is broken.
 */

async function newPayment(request: APIRequestContext, amount: number) {
  const store = await demoStoreCredentials(request);
  const response = await request.post('/v1/payment/web-pay', {
    headers: store,
    data: {
      orderId: uniqueId('order'),
      currency: 'USD',
      amount,
      customerName: 'Dana Doe',
      customerEmail: 'dana@example.com',
      customerPhone: '+15550100009',
      customerAddress: '1 Main Street',
      productName: 'Water bottle',
      cancelUrl: 'https://bobs-bikes.example/cart',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { redirectUrl: string; data: { paymentId: string } };
  return { path: new URL(body.redirectUrl).pathname, paymentId: body.data.paymentId };
}

test('a visitor pays a checkout by test card and is sent back to the store @phone', async ({ page, request }) => {
  const { path } = await newPayment(request, 12);
  await page.goto(path);
  await expect(page.getByTestId('checkout-amount')).toHaveText('US$ 12.00');
  await expect(page.getByRole('link', { name: /Cancel payment/ })).toHaveAttribute('href', 'https://bobs-bikes.example/cart');
  await expect(page.getByRole('tab', { name: 'Cards' })).toHaveAttribute('aria-selected', 'true');
  // No portal shell on a public page.
  await expect(page.getByRole('navigation')).toHaveCount(0);

  const pay = page.getByRole('button', { name: 'Pay US$ 12.00' });
  await pay.click();
  for (const message of [paymentMessages.cardNumberRequired, paymentMessages.expiryRequired, paymentMessages.cvcRequired, paymentMessages.cardHolderRequired]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Card number').fill('4242424242424242');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByTitle('visa')).toBeVisible();
  await page.getByLabel('MM/YY').fill('1234');
  await expect(page.getByLabel('MM/YY')).toHaveValue('12/34');
  await page.getByLabel('CVC').fill('12');
  await page.getByLabel('Card holder name').fill('Dana Doe');
  await pay.click();
  await expect(page.getByText(paymentMessages.cvcInvalid)).toBeVisible();
  await screenshot(page, 'checkout-card');

  await page.getByLabel('CVC').fill('123');
  // The store's signed return address is opened 2 s after success. Answered 204 once, that
  // navigation leaves the receipt on screen for its picture; the address it asked for is kept.
  let automaticReturn: string | undefined;
  await page.route(
    '**/dev/store-callbacks?**',
    (route) => {
      automaticReturn = route.request().url();
      return route.fulfill({ status: 204 });
    },
    { times: 1 },
  );
  await pay.click();
  await expect(page.getByText(paymentMessages.success)).toBeVisible();
  await expect.poll(() => automaticReturn, { timeout: 10_000 }).toMatch(/\/dev\/store-callbacks\?.*paymentStatus=success.*signature=/);
  await screenshot(page, 'checkout-card-paid');
  await page.getByRole('link', { name: 'Return to the store' }).click();
  await page.waitForURL(/\/dev\/store-callbacks\?.*paymentStatus=success.*signature=/, { timeout: 10_000 });

  // Opened again: already paid.
  await page.goto(path);
  await expect(page.getByRole('heading', { name: checkoutMessages.paid })).toBeVisible();
  await page.goto(`/web-pay/${uniqueId('nope')}`);
  await expect(page.getByRole('heading', { name: checkoutMessages.broken })).toBeVisible();
  await expect(page.getByText(checkoutMessages.brokenHint)).toBeVisible();
  await screenshot(page, 'checkout-broken');
});

test('a declined card shows the reason and the checkout stays payable', async ({ page, request }) => {
  const { path } = await newPayment(request, 5);
  await page.goto(path);
  await page.getByLabel('Card number').fill('4000000000000002');
  await page.getByLabel('MM/YY').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Card holder name').fill('Dana Doe');
  await page.getByRole('button', { name: 'Pay US$ 5.00' }).click();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay US$ 5.00' })).toBeEnabled();
});

test('alice pays a checkout from her wallet with her TPIN @phone', async ({ page, request }) => {
  const { path } = await newPayment(request, 3.5);
  await page.goto(path);
  await page.getByRole('tab', { name: 'Kestrel' }).click();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(checkoutMessages.emailRequired)).toBeVisible();
  await expect(page.getByText(checkoutMessages.passwordMissing)).toBeVisible();
  await page.getByLabel('Email').fill(demo.alice.email);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();

  const tpin = page.getByLabel('TPIN');
  await expect(tpin).toBeVisible();
  await expect(page.getByLabel('Account')).not.toHaveValue('');
  const pay = page.getByRole('button', { name: 'Pay US$ 3.50' });
  await pay.click();
  await expect(page.getByText(checkoutMessages.tpinRequired)).toBeVisible();
  await tpin.fill('48261234');
  await expect(tpin).toHaveValue('4826');
  await tpin.fill('48');
  await pay.click();
  await expect(page.getByText(checkoutMessages.tpinInvalid)).toBeVisible();
  await tpin.fill(DEMO_TPIN);
  await screenshot(page, 'checkout-wallet');
  await pay.click();
  await expect(page.getByText(paymentMessages.success)).toBeVisible();
  await page.waitForURL(/\/dev\/store-callbacks\?.*paymentStatus=success/, { timeout: 10_000 });
});

import { stepUpMessages, stepUpText } from '@kestrel/shared';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, test, uniqueId } from '../fixtures.ts';
import { screenshotWidths } from '../viewports.ts';
import { demoStoreCredentials } from '../wallet.ts';

/*
 * Issue 25: the store checkout's wallet step above the step-up threshold. Demo alice (default
 * threshold, two-factor sign-in off) pays US$ 1,500.00: the page shows the API's message (the
 * code was e-mailed) with the "Verification code" field under it, and no money moves. The
 * component tests prove the resend under the same Idempotency-Key.
 */
test('a checkout wallet pay above the threshold asks for the e-mailed verification code', async ({ page, request }) => {
  const response = await request.post('/v1/payment/web-pay', {
    headers: await demoStoreCredentials(request),
    data: { orderId: uniqueId('stepup'), currency: 'USD', amount: 1500, customerName: 'Dana Doe', customerEmail: 'dana@example.com', customerPhone: '+15550100009', customerAddress: '1 Main Street', productName: 'Road bike', cancelUrl: 'https://bobs-bikes.example/cart' },
  });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(new URL(((await response.json()) as { redirectUrl: string }).redirectUrl).pathname);
  await page.getByRole('tab', { name: 'Kestrel' }).click();
  await page.getByLabel('Email').fill(demo.alice.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByLabel('TPIN').fill(DEMO_TPIN);
  await page.getByRole('button', { name: 'Pay US$ 1,500.00' }).click();
  await expect(page.getByText(stepUpMessages.requiredEmail)).toBeVisible();
  await expect(page.getByLabel(stepUpText.label)).toBeFocused();
  await screenshotWidths(page, 'pay-step-up-checkout');
});

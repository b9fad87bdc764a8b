import { REFUND_CALLBACK_EVENT, refundMessages, type StoreRefundCallbackEvent } from '@kestrel/shared';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, loginThroughForm, test } from '../fixtures.ts';
import { expectAccessible, screenshotsAtWidths } from '../look.ts';
import { PaymentDetailsPage } from '../pages/payment-details.page.ts';
import { demoStoreCredentials, loginViaApi, payDemoStoreByCard } from '../wallet.ts';

/*
 * Refunds in the browser (issue 23): demo bob's seeded store takes a US$ 20.00 card payment
 * through the gateway API; bob opens it on its details page, refunds US$ 7.50 of it with a
 * reason and his TPIN, sees the refund listed (with the fee returned in proportion: 2 % of
 * 7.50 = 0.15) and "Partially refunded", the refund counters of his lists move, and the
 * store's callback listener receives the refund event, signed with the store key.
 */

/** A paid card payment of `amount` into demo bob's seeded store (one server-to-server call). */
const paidCardPayment = (request: APIRequestContext, amount: number) =>
  payDemoStoreByCard(request, amount, 'refund-order', () => ({
    customerName: 'Rene Returner',
    customerEmail: 'rene@example.test',
    customerPhone: '+15550100077',
    customerAddress: '7 Return Road',
    productName: 'Helmet and lights',
  }));

/** A callback body as a store reads it; null when it is not JSON. */
function parsed(body: string): Partial<StoreRefundCallbackEvent> | null {
  try {
    return JSON.parse(body) as Partial<StoreRefundCallbackEvent>;
  } catch {
    return null;
  }
}

/** A counter card's number and its amount line. */
const counter = (page: Page, label: string) => page.getByRole('article', { name: label, exact: true });
const counterValue = async (card: Locator) => Number(await card.locator('p').first().textContent());

test('bob refunds part of a card payment on its details page; the refund is listed, the counters move and the store is told, signed @phone', async ({ page, request }) => {
  test.slow();
  const { store, paymentId, orderId } = await paidCardPayment(request, 20);
  const token = await loginViaApi(request, demo.bob.email, DEMO_PASSWORD);
  const before = (await (await request.get(`/v1/payment/store/${store.storeId}/summary`, { headers: { Authorization: token } })).json()).data as { refundCount: number };

  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  const details = new PaymentDetailsPage(page);
  await details.goto(paymentId);
  await expect(details.summary).toContainText(orderId);
  await expect(details.refunds).toContainText(refundMessages.noRefunds);
  await details.refundButton.click();
  await expect(details.refundForm).toBeVisible();
  await expect(details.field('amount')).toHaveValue('20.00');
  await expect(details.field('amount')).toBeFocused();

  // The form's own checks, before any round trip: TPIN missing, more than is left.
  await details.field('amount').fill('20.01');
  await details.submit().click();
  await expect(details.refundForm.getByText(refundMessages.exceedsRemaining('US$ 20.00'))).toBeVisible();
  await expect(details.refundForm.getByText('TPIN is required')).toBeVisible();
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-form-errors');

  await details.field('amount').fill('7.50');
  await details.field('reason').fill('Returned the helmet');
  await details.field('tpin').fill(DEMO_TPIN);
  await details.submit().click();
  await expect(page.getByRole('status').getByText(refundMessages.created)).toBeVisible();
  await expect(details.refundForm).toBeHidden();

  // Listed: amount, where it went, fee returned, reason, who, status; the payment is partly refunded.
  await expect(details.refundRows()).toHaveCount(1);
  const row = details.refundRows().first();
  await expect(row).toContainText('US$ 7.50');
  await expect(row).toContainText('US$ 0.15');
  await expect(row).toContainText('Returned the helmet');
  // Who asked: bob (his name), as the owner.
  await expect(row).toContainText(/Bob \w+.*owner/);
  await expect(row).toContainText('succeeded');
  await expect(details.summary).toContainText('Partially refunded');
  await expect(details.summary).toContainText('US$ 12.50 left');
  // What is left can still be refunded: the button is back, and the form now offers US$ 12.50.
  await details.refundButton.click();
  await expect(details.field('amount')).toHaveValue('12.50');
  await details.refundForm.getByRole('button', { name: 'Cancel' }).click();
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-details');

  // The store's Payments tab: its "Refunded" counter counts this refund (another journey's refund may add to it).
  await page.goto(`/payment-gateway/${store.storeId}`);
  const refunded = counter(page, 'Refunded');
  await expect.poll(() => counterValue(refunded)).toBeGreaterThanOrEqual(before.refundCount + 1);
  await expect(refunded).toContainText('US$');
  const paymentRow = page.locator('table tbody tr:visible, ul[aria-label="Payments of this store, newest first"] > li:visible').filter({ hasText: orderId });
  await expect(paymentRow).toContainText('Partially refunded');
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-store-payments');

  // The gateway list's "Total Refund" and Payment History's "Refunded" count real refunds too.
  await page.goto('/payment-gateway');
  await expect.poll(() => counterValue(counter(page, 'Total Refund'))).toBeGreaterThanOrEqual(1);
  await screenshotsAtWidths(page, 'refund-gateway-counters');
  await page.goto('/payments');
  await expect.poll(() => counterValue(counter(page, 'Refunded'))).toBeGreaterThanOrEqual(1);

  // Bob's transactions show the refund with its own purpose, as a debit of his account.
  await page.goto('/transactions');
  const refundRow = page.locator('table tbody tr:visible, ul > li:visible').filter({ hasText: 'Refund' }).filter({ hasText: '7.50' }).first();
  await expect(refundRow).toBeVisible();
  await expect(refundRow).toContainText('debit');
  await screenshotsAtWidths(page, 'refund-transactions');

  // The store is told at its callback URL (the demo listener), signed with the store key.
  let event: StoreRefundCallbackEvent | undefined;
  await expect
    .poll(
      async () => {
        const received = (await (await request.get('/dev/store-callbacks.json')).json()) as { body: string; signature: string | null; verified: boolean }[];
        const entry = received.find((item) => {
          const body = parsed(item.body);
          return body?.event === REFUND_CALLBACK_EVENT && body.paymentId === paymentId;
        });
        if (!entry) return 'not yet';
        event = JSON.parse(entry.body) as StoreRefundCallbackEvent;
        return entry.verified && entry.signature ? 'verified' : 'unverified';
      },
      { timeout: 20_000 },
    )
    .toBe('verified');
  expect(event).toMatchObject({ event: REFUND_CALLBACK_EVENT, paymentId, orderId, currency: 'USD', amount: 7.5, fee: 0.15, amountRefunded: 7.5, amountRemaining: 12.5, refundStatus: 'succeeded' });
});

test("an operator refunds the rest of a payment on the customer's behalf, with a reason; the owner sees it as Refunded", async ({ page, request }) => {
  test.slow();
  const { paymentId } = await paidCardPayment(request, 9);
  const ops = { email: 'ops@example.com', password: DEMO_PASSWORD };
  await loginThroughForm(page, ops.email, ops.password, /\/ops$/);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payments' }).click();
  await page.getByLabel('Payment ID').fill(paymentId);
  await page.getByRole('button', { name: 'Find' }).click();
  const form = page.getByRole('form', { name: "Refund on the customer's behalf" });
  await expect(form.getByLabel('Amount')).toHaveValue('9.00');
  await form.getByRole('button', { name: 'Refund' }).click();
  await expect(form.getByText('Reason is required')).toBeVisible();
  await form.getByLabel('Reason').fill('Customer phoned: parcel never arrived');
  await form.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('status').getByText(refundMessages.created)).toBeVisible();
  await expect(page.getByText('This payment is fully refunded.')).toBeVisible();
  const refunds = page.locator('tbody tr:visible, ul[aria-label="Refunds of this payment"] > li:visible');
  await expect(refunds).toHaveCount(1);
  await expect(refunds.first()).toContainText('Customer phoned: parcel never arrived');
  await expect(refunds.first()).toContainText('US$ 9.00');
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-ops-payment');

  // The owner's details page: Refunded, and no Refund button any more.
  await page.context().clearCookies();
  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  const details = new PaymentDetailsPage(page);
  await details.goto(paymentId);
  await expect(details.summary).toContainText('Refunded');
  await expect(details.summary).not.toContainText('Partially refunded');
  await expect(details.refundButton).toHaveCount(0);
  await expect(details.refundRows().first()).toContainText('Kestrel support');

  // The other screens whose refund counters or texts changed, for people to look at.
  await page.goto('/payments');
  await expect(counter(page, 'Refunded')).toContainText('US$');
  await screenshotsAtWidths(page, 'refund-payment-history');
  await page.goto('/payment-request');
  await expect(counter(page, 'Total Refund')).toContainText('US$');
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-payment-requests');
  const store = await demoStoreCredentials(request);
  await page.goto(`/payment-gateway/${store.storeId}`);
  await page.getByRole('tab', { name: 'Integration' }).click();
  await expect(page.getByLabel('curl: refund a payment')).toContainText(`/v1/payment/refund/PAYMENT_ID`);
  await expect(page.getByLabel('SDK: refund a payment')).toContainText('kestrel.refunds.create');
  await expectAccessible(page);
  await screenshotsAtWidths(page, 'refund-integration-tab');
});

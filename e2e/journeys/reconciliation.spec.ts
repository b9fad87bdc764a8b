import { paymentMessages, reconciliationMessages as rm } from '@kestrel/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { expectAccessible, lookAt } from '../look.ts';
import { E2E_OPERATOR } from '../operator.ts';
import { demoStoreCredentials } from '../wallet.ts';

/*
 * Reconciliation on the operator console (issue 26). Two customers of demo bob's store pay
 * with the sandbox card whose answer is lost after the processor charged it (4000 0000 0000
 * 0259): each gets the 502 and nothing is recorded; the second pays again with another card.
 * The operator reconciles today, finds both charges "charged but not recorded" by their
 * payments, records the first (the payment becomes paid) and, the second payment being paid
 * already, is told so and voids that charge instead — each with a reason. A run again finds
 * neither open.
 */

const NO_ANSWER = '4000 0000 0000 0259';

type Store = Awaited<ReturnType<typeof demoStoreCredentials>>;

async function newPayment(request: APIRequestContext, store: Store, amount: number): Promise<string> {
  const orderId = uniqueId('recon-order');
  const response = await request.post('/v1/payment/web-pay', {
    headers: store,
    data: {
      orderId,
      currency: 'USD',
      amount,
      customerName: 'Lena Lost',
      customerEmail: 'lena@example.test',
      customerPhone: '+15550100088',
      customerAddress: '8 Timeout Lane',
      productName: 'Bike lock',
      cancelUrl: 'https://bobs-bikes.example/cart',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()).data as { paymentId: string }).paymentId;
}

const payByCard = (request: APIRequestContext, paymentId: string, number: string) =>
  request.post(`/v1/payment/complete/${paymentId}`, { data: { type: 'card', number, expiresIn: '12/34', cvc: '123', cardHolderName: 'Lena Lost' } });

/** The difference whose card links to this payment. */
const differenceOf = (page: Page, paymentId: string) => page.getByRole('article').filter({ has: page.getByRole('link', { name: `Payment ${paymentId}` }) });

test('an operator finds charges the books do not have, records one and voids the other, each with a reason', async ({ page, request }) => {
  test.slow();
  const store = await demoStoreCredentials(request);
  const recordable = await newPayment(request, store, 18.4);
  const paidAgain = await newPayment(request, store, 9.5);
  for (const paymentId of [recordable, paidAgain]) {
    const lost = await payByCard(request, paymentId, NO_ANSWER);
    expect(lost.status()).toBe(502);
    expect((await lost.json()).error).toBe(paymentMessages.processorNoAnswer);
  }
  expect((await payByCard(request, paidAgain, '4242 4242 4242 4242')).status()).toBe(200);

  await loginThroughForm(page, E2E_OPERATOR.email, E2E_OPERATOR.password, /\/ops$/);
  await expect(page.getByRole('link', { name: /Reconciliation differences open/ })).toBeVisible();
  await lookAt(page, 'ops-overview-reconciliation');
  await page.getByRole('link', { name: /Reconciliation differences open/ }).click();
  await expect(page.getByRole('heading', { name: 'Reconciliation', level: 1 })).toBeVisible();
  await page.getByLabel('Day (UTC)').fill(new Date().toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Reconcile' }).click();
  await expect(page.getByText(/^Reconciled: \d+ differences? found$/)).toBeVisible();

  const first = differenceOf(page, recordable);
  const second = differenceOf(page, paidAgain);
  await expect(first.getByRole('heading', { name: 'Charged but not recorded' })).toBeVisible();
  await expect(first).toContainText('US$ 18.40 · approved');
  await expect(first).toContainText('visa ending 0259');
  await expect(second).toContainText('US$ 9.50 · approved');
  await lookAt(page, 'ops-reconciliation');

  // A reason first; then Record pays the payment through the collect pipeline.
  await first.getByRole('button', { name: 'Record in the books' }).click();
  await expect(first.getByText('Reason is required')).toBeVisible();
  await first.getByLabel('Reason (kept in the audit log)').fill('Processor timed out; the charge is on the card');
  await first.getByRole('button', { name: 'Record in the books' }).click();
  await expect(page.getByText(rm.recorded)).toBeVisible();
  await expect(first).toHaveCount(0);
  const recorded = await request.get(`/v1/payment/paymentId/${recordable}`, { headers: store });
  expect(((await recorded.json()).data as { paymentStatus: string }).paymentStatus).toBe('success');

  // The other payment was paid meanwhile: Record says so; Void (by keyboard) releases the charge.
  const reason = second.getByLabel('Reason (kept in the audit log)');
  await reason.fill('Customer paid again with another card');
  await second.getByRole('button', { name: 'Record in the books' }).click();
  await expect(page.getByText(rm.notPayable(paymentMessages.alreadyPaid))).toBeVisible();
  await reason.focus();
  await page.keyboard.press('Tab');
  await expect(second.getByRole('button', { name: 'Void at the processor' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(rm.voided)).toBeVisible();
  await expect(second).toHaveCount(0);

  // Reconciled again, neither is open; the resolved list says who did what and why.
  await page.getByRole('button', { name: 'Reconcile' }).click();
  await expect(page.getByText(/^Reconciled: /)).toBeVisible();
  await expect(differenceOf(page, recordable)).toHaveCount(0);
  await page.getByLabel('Show').selectOption('resolved');
  await expect(differenceOf(page, recordable)).toContainText(`Recorded in the books by ${E2E_OPERATOR.email}`);
  await expect(differenceOf(page, recordable)).toContainText('Processor timed out; the charge is on the card');
  await expect(differenceOf(page, recordable).getByText('Transaction', { exact: true })).toBeVisible();
  await expect(differenceOf(page, paidAgain)).toContainText('Voided at the processor');
  await expectAccessible(page);
  await lookAt(page, 'ops-reconciliation-resolved');
});

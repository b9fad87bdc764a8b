import type { APIRequestContext } from '@playwright/test';
import { expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { PaymentRequestListPage } from '../pages/payment-requests.page.ts';
import { screenshotWidths } from '../viewports.ts';
import { auth, holderViaApi, TPIN, type Holder } from '../wallet.ts';

/*
 * The payment-request list a page at a time (issue 20, item 11): 25 links, then "Load more";
 * the counters are the server's, over every link, not over the page shown.
 */

async function linkViaApi(request: APIRequestContext, holder: Holder, purpose: string): Promise<{ _id: string; pRequestURLId: string }> {
  const response = await request.post('/v1/payment-request/create', {
    headers: auth(holder.token),
    data: {
      paymentPurpose: purpose,
      reference: 'LIST-1',
      tpin: TPIN,
      accountNumber: holder.accountNumber,
      amount: { type: 'fixed', currency: 'USD', value: 3 },
      isUseLimit: false,
      paymentMethods: ['Card'],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { _id: string; pRequestURLId: string };
}

test('the list shows 25 links, then the rest with Load more; the counters count every link and payment', async ({ page, request }) => {
  // 26 links through the API before the browser starts: more than the default minute on a busy machine.
  test.slow();
  const holder = await holderViaApi(request, 'owner');
  const links: { _id: string; pRequestURLId: string }[] = [];
  for (let i = 1; i <= 26; i++) links.push(await linkViaApi(request, holder, `Lesson ${String(i).padStart(2, '0')} ${uniqueId('pr')}`));
  const oldest = links[0]!;
  // The oldest link is turned off, and paid once by card before that.
  const paid = await request.post(`/v1/payment-request/card/complete-payment/${oldest.pRequestURLId}`, {
    data: { type: 'card', number: '4242 4242 4242 4242', expiresIn: '12/34', cvc: '937', email: 'dana@example.com', amount: 3, cardHolderName: 'Dana Payer' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const off = await request.patch(`/v1/payment-request/update/${oldest._id}`, { headers: auth(holder.token), data: { status: 'inactive' } });
  expect(off.status()).toBe(200);

  await loginThroughForm(page, holder.email, holder.password);
  const list = new PaymentRequestListPage(page);
  await list.goto();
  await expect(list.rows()).toHaveCount(25);
  await expect(list.rows().first()).toContainText('Lesson 26');
  await expect(list.counter('Total Request')).toHaveText('26');
  await expect(list.counter('Active Request')).toHaveText('25');
  await expect(list.counter('Total Payments')).toHaveText('1');
  await expect(list.counter('Total Refund')).toHaveText('0');
  await expect(page.getByText('Lesson 01', { exact: false })).toHaveCount(0);
  await screenshotWidths(page, 'payment-request-list-paged');

  // By keyboard: the button takes focus and Enter loads the older link, once.
  await list.loadMore.focus();
  await page.keyboard.press('Enter');
  await expect(list.rows()).toHaveCount(26);
  await expect(list.rows().last()).toContainText('Lesson 01');
  await expect(list.rows().last()).toContainText('Disable');
  await expect(list.loadMore).toHaveCount(0);
  await expect(list.counter('Total Request')).toHaveText('26');
});

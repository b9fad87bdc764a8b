import type { APIRequestContext } from '@playwright/test';
import { expect, loginThroughForm, registerViaApi, screenshot, test } from '../fixtures.ts';
import { expectAccessible } from '../look.ts';
import { pngImage } from '../pages/account.page.ts';
import { auth, balanceOf, fundFromDemo, holderViaApi, TPIN, type Holder } from '../wallet.ts';

/*
 * The operator console in the browser: the demo operator works each queue on data this test
 * makes for itself (a pending store, two withdrawals, identity documents), so other journeys
 * running at the same time do not get in its way.
 */

const OPERATOR = { email: 'ops@example.com', password: 'kestrel-demo' };
/** The demo data's second operator: the checker of four-eyes requests. */
const CHECKER = { email: 'ops2@example.com', password: 'kestrel-demo' };
/** An operator's sign-in lands on the console, never on the wallet's complete-account form. */
const ON_CONSOLE = /\/ops$/;

async function withdraw(request: APIRequestContext, holder: Holder, amount: string): Promise<void> {
  const response = await request.post('/v1/bank-withdraw/create', {
    headers: auth(holder.token),
    data: {
      accountNumber: holder.accountNumber,
      tpin: TPIN,
      country: 'United States',
      bankName: 'First Journey Bank',
      accountType: 'checking',
      bankAccountNumber: '000123456789',
      routingNumber: '021000021',
      accountHolderName: holder.holderName,
      currency: 'USD',
      amount,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function pendingStore(request: APIRequestContext, holder: Holder): Promise<string> {
  const storeName = `Quill Books ${holder.userName}`;
  const response = await request.post('/v1/payment_gateway_store/create', {
    headers: auth(holder.token),
    multipart: {
      accountKey: holder.accountNumber,
      tpin: TPIN,
      storeName,
      storeURL: 'https://quill-books.example',
      callbackURL: 'https://quill-books.example/kestrel/callback',
      storeLogo: pngImage('logo.png', 11),
      businessDocuments: pngImage('licence.png', 23),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return storeName;
}

async function uploadIdentity(request: APIRequestContext, holder: Holder): Promise<void> {
  const response = await request.patch('/v1/account/upload-image', {
    headers: auth(holder.token),
    multipart: { accountNumber: holder.accountNumber, identityImage: pngImage('passport.png', 47) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test('an operator works the queues: store, withdrawals, identity, funding, ledger health, audit log', async ({ page, request }) => {
  const holder = await holderViaApi(request, 'payer');
  await fundFromDemo(request, holder); // US$ 40.00
  const storeName = await pendingStore(request, holder);
  await withdraw(request, holder, '5.00');
  await withdraw(request, holder, '7.00');
  await uploadIdentity(request, holder);
  expect(await balanceOf(request, holder)).toBe(28);

  await loginThroughForm(page, OPERATOR.email, OPERATOR.password, ON_CONSOLE);
  await page.goto('/ops');
  await expect(page.getByRole('heading', { name: 'Queues' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-overview');

  // Stores: approve the pending one.
  await page.getByRole('link', { name: /Stores pending approval/ }).click();
  await expect(page).toHaveURL(/\/ops\/stores$/);
  const store = page.getByRole('article', { name: storeName });
  await expect(store.getByRole('img', { name: `${storeName} business document 1` })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-stores');
  // Approving asks a reason like every other change.
  await store.getByRole('button', { name: 'Approve' }).click();
  await expect(store.getByText('Reason is required')).toBeVisible();
  await store.getByPlaceholder('Reason for approving (kept in the audit log)').fill('Licence matches the shop');
  await store.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`${storeName} approved`)).toBeVisible();
  await expect(store).toHaveCount(0);

  // Withdrawals: both to Processing, then complete one and fail the other.
  await page.getByRole('link', { name: 'Withdrawals', exact: true }).click();
  const mine = (amount: string) => page.getByRole('article').filter({ hasText: holder.holderName }).filter({ hasText: amount });
  for (const amount of ['5.00', '7.00']) {
    await mine(amount).getByRole('button', { name: 'Processing' }).click();
    await expect(mine(amount)).toHaveCount(0);
  }
  await page.getByLabel('Status').selectOption('Processing');
  await expect(mine('5.00').getByText('000123456789')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-withdrawals');
  await mine('5.00').getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByText('Withdrawal completed')).toBeVisible();
  await mine('7.00').getByRole('button', { name: 'Fail' }).click();
  await expect(mine('7.00').getByText('Reason is required')).toBeVisible();
  await mine('7.00').getByPlaceholder('Reason the holder will see').fill('The bank returned the payment');
  await mine('7.00').getByRole('button', { name: 'Fail' }).click();
  await expect(page.getByText('Withdrawal failed; the money is back in the wallet')).toBeVisible();
  await expect.poll(() => balanceOf(request, holder)).toBe(35);

  // Identity: the document beside the fields; verify.
  await page.getByRole('link', { name: 'Identity reviews', exact: true }).click();
  const identity = page.getByRole('article', { name: `Identity of ${holder.holderName}` });
  await expect(identity.getByRole('img', { name: `${holder.holderName} identity document 1` })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-identity');
  await identity.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`${holder.holderName} verified`)).toBeVisible();
  await expect(identity).toHaveCount(0);

  // Accounts: find the holder and fund the wallet.
  await page.getByRole('link', { name: 'Accounts', exact: true }).click();
  await page.getByLabel('Account number, user name, e-mail or phone').fill(holder.userName);
  await page.getByRole('link', { name: new RegExp(holder.holderName) }).click();
  await expect(page.getByRole('heading', { name: holder.holderName })).toBeVisible();
  await page.getByLabel('Amount').fill('10.00');
  await page.getByRole('button', { name: 'Fund' }).click();
  await expect(page.getByText('Reason is required')).toBeVisible();
  await page.getByLabel('Reason', { exact: true }).fill('Goodwill credit for the failed payout');
  await page.getByRole('button', { name: 'Fund' }).click();
  await expect(page.getByText('Wallet funded', { exact: true }).first()).toBeVisible();
  await expect.poll(() => balanceOf(request, holder)).toBe(45);
  await expect(page.getByText('US$ 45.00').first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-account');

  // Ledger health is green after all of it.
  await page.getByRole('link', { name: 'Ledger health' }).click();
  // The verdict is a status region; a toast from the previous step may be one too, for 2 s.
  await expect(page.getByRole('status').filter({ hasText: /Healthy: the books balance/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-ledger');

  // The audit log shows the funding, newest first.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action (starts with)').fill('account.funded');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('cell', { name: 'account.funded' }).first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-audit');

  // The failing-callbacks count on the overview opens its queue.
  await page.getByRole('link', { name: 'Queues' }).click();
  await page.getByRole('link', { name: /Callback deliveries failing/ }).click();
  await expect(page.getByRole('heading', { name: 'Failing callbacks' })).toBeVisible();
  await expect(page.getByText(/No callback deliveries are failing\.|deliveries\)/).first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-callbacks');
});

test('four eyes: one operator asks to fund above US$ 100.00, another approves; a store is suspended and reinstated @phone', async ({ page, request }) => {
  // Two sign-ins and a dozen console steps: more than the default minute on a shared machine.
  test.slow();
  const holder = await holderViaApi(request, 'payee');
  const storeName = await pendingStore(request, holder);
  const operatorToken = async (who: { email: string; password: string }) =>
    (await (await request.post('/v1/auth/login', { data: who })).json()).data.token as string;
  expect((await request.post(`/v1/operator/stores/${(await storeIdOf(request, holder, storeName))}/approve`, { headers: auth(await operatorToken(CHECKER)), data: { reason: 'Checked' } })).status()).toBe(200);

  // The maker asks: US$ 150.00 goes to the queue, nothing moves yet.
  await loginThroughForm(page, OPERATOR.email, OPERATOR.password, ON_CONSOLE);
  await page.goto('/ops/accounts');
  await page.getByLabel('Account number, user name, e-mail or phone').fill(holder.userName);
  await page.getByRole('link', { name: new RegExp(holder.holderName) }).click();
  await page.getByLabel('Amount').fill('150.00');
  await page.getByLabel('Reason', { exact: true }).fill('Refund of a lost bank transfer');
  await page.getByRole('button', { name: 'Fund' }).click();
  await expect(page.getByText('Sent for approval: a second operator must approve it').first()).toBeVisible();
  expect(await balanceOf(request, holder)).toBe(0);
  await page.getByRole('link', { name: 'Approvals' }).click();
  const request150 = page.getByRole('article').filter({ hasText: holder.holderName }).filter({ hasText: '150.00' });
  await expect(request150.getByText('Your request: another operator must approve or refuse it.')).toBeVisible();
  await expect(request150.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The checker approves it with a reason; the money moves once.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await loginThroughForm(page, CHECKER.email, CHECKER.password, ON_CONSOLE);
  await page.goto('/ops/approvals');
  await expect(page.getByRole('heading', { name: 'Pending approvals' })).toBeVisible();
  await expect(request150.getByText(OPERATOR.email)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-approvals');
  await request150.getByPlaceholder('Reason for approving (kept in the audit log)').fill('Matches the bank statement');
  await request150.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Approved and carried out')).toBeVisible();
  await expect.poll(() => balanceOf(request, holder)).toBe(150);
  await expect(page.getByRole('region', { name: "Today's totals per operator" })).toContainText(OPERATOR.email);
  await page.getByRole('link', { name: 'Queues' }).click();
  await expect(page.getByRole('region', { name: "Today's totals per operator" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-overview-today');

  // Suspend the store with a reason; its checkout and gateway answer 403 until it is reinstated.
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await page.getByLabel('Status').selectOption('Approved');
  const store = page.getByRole('article', { name: storeName });
  await store.getByPlaceholder('Reason the owner will see').fill('Chargebacks under review');
  await store.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByText(`${storeName} suspended`)).toBeVisible();
  await page.getByLabel('Status').selectOption('Suspended');
  await expect(store.getByText('Chargebacks under review')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-store-suspended');
  await store.getByPlaceholder('Reason for reinstating (kept in the audit log)').fill('Review closed');
  await store.getByRole('button', { name: 'Reinstate' }).click();
  await expect(page.getByText(`${storeName} reinstated`)).toBeVisible();
});

/** The public id of the holder's store of that name. */
async function storeIdOf(request: APIRequestContext, holder: Holder, storeName: string): Promise<string> {
  const list = await (await request.get(`/v1/payment_gateway_store/account/${encodeURIComponent(holder.accountEmail)}`, { headers: auth(holder.token) })).json();
  return (list.data.stores as { storeName: string; storeId: string }[]).find((entry) => entry.storeName === storeName)!.storeId;
}

test('the console is for operators only; at phone width it still works @phone', async ({ page, request }) => {
  // A visitor and a signed-in holder both get 'Page Not Found'.
  await page.goto('/ops');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  const user = await registerViaApi(request);
  await loginThroughForm(page, user.email, user.password);
  await page.goto('/ops/withdrawals');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await screenshot(page, 'ops-not-found');

  // The operator's console at this width.
  await page.context().clearCookies();
  await loginThroughForm(page, OPERATOR.email, OPERATOR.password, ON_CONSOLE);
  await page.goto('/ops');
  await expect(page.getByRole('heading', { name: 'Queues' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-overview-small');
  await page.goto('/ops/withdrawals?status=Pending');
  await expect(page.getByRole('heading', { name: 'Withdrawals' })).toBeVisible();
  await screenshot(page, 'ops-withdrawals-small');
  await page.goto('/ops/ledger');
  await expect(page.getByRole('status')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-ledger-small');
  await page.goto('/ops/callbacks');
  await expect(page.getByRole('heading', { name: 'Failing callbacks' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'ops-callbacks-small');
});

import { messages, uiText, withdrawMessages } from '@kestrel/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, loginThroughForm, registerViaApi, screenshot, test, uniqueId, uniquePhone } from '../fixtures.ts';
import { expectAccessible, screenshotsAtWidths } from '../look.ts';
import { E2E_OPERATOR } from '../operator.ts';
import { headerBalanceButton } from '../pages/transfer.page.ts';
import { BankWithdrawListPage, WithdrawForm, WithdrawHubPage } from '../pages/withdrawals.page.ts';

/*
 * Bank withdrawals and the deposit page in the browser. Each run uses a fresh holder who gets
 * US$ 40.00 from demo bob; operators move the withdrawals through the API, as they would.
 */

const TPIN = '1357';
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Holder {
  email: string;
  password: string;
  token: string;
  accountNumber: string;
  userName: string;
}

async function login(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/v1/auth/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data.token as string;
}

/** A verified user with one personal USD account holding US$ 40.00. */
async function fundedHolder(request: APIRequestContext): Promise<Holder> {
  const user = await registerViaApi(request);
  const id = uniqueId('wd');
  const created = await request.post('/v1/account/create', {
    headers: auth(user.token),
    data: {
      users: [{ userId: user.userId, tpin: TPIN }],
      accountHolderName: `Morgan Vale-${id}`,
      userName: id,
      accountEmail: `${id}@wallet.example.test`,
      accountPhone: uniquePhone(),
      accountType: 'personal',
      identity: { type: 'passport', number: `E2E-${id}` },
      dateOfBirth: '1988-07-02',
      address: { street: '1 Test Street', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US' },
      balance: [{ currency: 'USD' }],
      notificationPreference: 'email',
      occupation: 'Tester',
      annualIncome: '50000',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { accountNumber } = (await created.json()).data as { accountNumber: string };
  const bob = await login(request, demo.bob.email, DEMO_PASSWORD);
  const funding = await request.post('/v1/account/transfer_balance', {
    headers: { ...auth(bob), 'Idempotency-Key': `e2e-float-${id}` },
    data: { debitAccountKey: demo.bob.userName, creditAccountKey: id, currency: 'USD', balance: '40.00', tpin: DEMO_TPIN },
  });
  expect(funding.status(), await funding.text()).toBe(200);
  return { email: user.email, password: user.password, token: user.token, accountNumber, userName: id };
}

async function operatorMove(request: APIRequestContext, token: string, id: string, action: 'processing' | 'complete' | 'fail', reason?: string) {
  const response = await request.post(`/v1/operator/withdrawals/${id}/${action}`, { headers: auth(token), ...(reason ? { data: { reason } } : {}) });
  expect(response.status(), await response.text()).toBe(200);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.locator('main').evaluate((main) => main.scrollWidth - main.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A Pending withdrawal asked for through the API (Bangladesh, so branch name shows). */
async function withdrawViaApi(request: APIRequestContext, holder: Holder, amount: string): Promise<string> {
  const response = await request.post('/v1/bank-withdraw/create', {
    headers: auth(holder.token),
    data: {
      accountNumber: holder.accountNumber,
      tpin: TPIN,
      country: 'Bangladesh',
      bankName: 'Padma Bank',
      branchName: 'Gulshan',
      bankAccountNumber: '1234500099',
      routingNumber: '125261724',
      accountHolderName: 'Morgan Vale',
      currency: 'USD',
      amount,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data._id as string;
}

test.describe('bank withdrawals', () => {
  test('first withdrawal from the form, a second from New withdraw; an operator completes one and fails the other @phone', async ({ page, request }) => {
    // A long journey: on a busy shared machine it ran past the default minute (timeouts only, no failed check).
    test.slow();
    const holder = await fundedHolder(request);
    await loginThroughForm(page, holder.email, holder.password);

    const hub = new WithdrawHubPage(page);
    await hub.goto();
    await hub.mobileWalletOption.click();
    await expect(hub.comingSoonToast()).toBeVisible();
    await screenshot(page, 'withdraw-hub');
    await hub.bankOption.click();
    await expect(page).toHaveURL(/\/withdraw\/bank$/);

    // No withdrawals yet: the form is shown instead of the list.
    const list = new BankWithdrawListPage(page);
    const form = new WithdrawForm(page);
    await expect(form.form).toBeVisible();
    await expect(list.counter('Total Withdraw')).toHaveText('0');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'withdraw-bank-empty');

    // Every field's message, then the country-specific fields.
    await form.submit.click();
    for (const label of ['Country', 'Bank Name', 'Bank Account Number', 'Routing Number', 'Account Holder Name', 'Amount', 'TPIN']) {
      await expect(form.form.getByText(`${label} is required`, { exact: true })).toBeVisible();
    }
    await expect(form.field('branchName')).toHaveCount(0);
    await form.field('country').selectOption('Bangladesh');
    await expect(form.field('branchName')).toBeVisible();
    await expect(form.field('accountType')).toHaveCount(0);
    await form.field('country').selectOption('United States');
    await expect(form.field('accountType')).toBeVisible();
    await form.field('amount').pressSequentially('1a0.5.0');
    await expect(form.field('amount')).toHaveValue('10.50');
    await form.field('tpin').fill('12');
    await form.submit.click();
    await expect(form.form.getByText('Account Type is required', { exact: true })).toBeVisible();
    await expect(form.form.getByText(messages.tpin.fourDigits, { exact: true })).toBeVisible();
    await screenshot(page, 'withdraw-form-errors');

    // A wrong TPIN is the server's error, and nothing is held.
    await form.fill({
      country: 'United States',
      accountType: 'Checking',
      bankName: 'First Harbor Bank',
      bankAccountNumber: '000123456789',
      routingNumber: '021000021',
      accountHolderName: 'Morgan Vale',
      amount: '10.00',
      tpin: '9999',
    });
    await form.submit.click();
    await expect(page.getByRole('status').getByText(/Incorrect TPIN/)).toBeVisible();
    await form.field('tpin').fill(TPIN);
    await form.submit.click();
    await expect(form.pendingToast()).toBeVisible();
    await expect(list.rows()).toHaveCount(1);
    await expect(list.rows().first()).toContainText('US$ 10.00');
    await expect(list.rows().first()).toContainText('Pending');
    await expect(list.rows().first()).toContainText('****6789');
    await expect(list.rows().first()).not.toContainText('000123456789');
    await expect(list.rows().first()).toContainText('First Harbor Bank');
    await expect(list.rows().first()).toContainText('United States');

    await list.newWithdraw.click();
    await expect(page).toHaveURL(/\/bank\/withdraw\/new$/);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'withdraw-new');
    await form.fill({
      country: 'Bangladesh',
      branchName: 'Gulshan',
      bankName: 'Padma Bank',
      bankAccountNumber: '1234500099',
      routingNumber: '125261724',
      accountHolderName: 'Morgan Vale',
      amount: '5.50',
      tpin: TPIN,
    });
    // The first request's toast (2 s) must be gone, so the one below is this request's.
    await expect(form.pendingToast()).toHaveCount(0);
    await form.submit.click();
    await expect(form.pendingToast()).toBeVisible();
    await expect(page).toHaveURL(/\/withdraw\/bank$/);
    await expect(list.rows()).toHaveCount(2);
    await expect(list.counter('Pending')).toHaveText('2');
    // Both amounts are held while pending.
    await headerBalanceButton(page).click();
    await expect(headerBalanceButton(page)).toHaveText('24.50 USD');

    // The operator pays the first out and fails the second (through the API).
    const ops = await login(request, E2E_OPERATOR.email, E2E_OPERATOR.password);
    const mine = await request.get(`/v1/bank-withdraw/account/${holder.accountNumber}`, { headers: auth(holder.token) });
    const [second, first] = (await mine.json()).data as { _id: string }[];
    for (const w of [first!, second!]) await operatorMove(request, ops, w._id, 'processing');
    const race = await Promise.all([
      request.post(`/v1/operator/withdrawals/${first!._id}/complete`, { headers: auth(ops) }),
      request.post(`/v1/operator/withdrawals/${first!._id}/fail`, { headers: auth(ops), data: { reason: 'duplicate' } }),
    ]);
    expect(race.map((r) => r.status()).sort()).toEqual([200, 409]);
    const firstOutcome = race[0]!.status() === 200 ? 'Completed' : 'Failed';
    await operatorMove(request, ops, second!._id, 'fail', 'Branch could not be found');

    await list.goto();
    await expect(list.counter('Completed')).toHaveText(firstOutcome === 'Completed' ? '1' : '0');
    await expect(list.counter('Pending')).toHaveText('0');
    await expect(list.counter('Total Withdraw')).toHaveText('2');
    await expect(list.counter('Failed')).toHaveText(firstOutcome === 'Completed' ? '1' : '2');
    const [newest, oldest] = [list.rows().nth(0), list.rows().nth(1)];
    await expect(newest).toContainText('Failed');
    await expect(newest).toContainText('Branch could not be found');
    await expect(newest.locator('[data-status="Failed"]')).toHaveClass(/danger/);
    await expect(oldest).toContainText(firstOutcome);
    if (firstOutcome === 'Completed') await expect(oldest.locator('[data-status="Completed"]')).toHaveClass(/success/);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'withdraw-bank-list');

    // The failed withdrawal's money is back; the completed one stays out.
    await page.reload();
    await headerBalanceButton(page).click();
    await expect(headerBalanceButton(page)).toHaveText(firstOutcome === 'Completed' ? '30.00 USD' : '40.00 USD');

    await page.goto('/dashboard');
    await expect(page.getByRole('article', { name: uiText.dashboard.totalWithdraw }).locator('p')).toHaveText('2');
  });

  test('deposit only says it is coming soon and sends nothing @phone', async ({ page, request }) => {
    const holder = await fundedHolder(request);
    await loginThroughForm(page, holder.email, holder.password);
    await page.goto('/deposit');
    await expect(page.getByRole('heading', { name: 'Deposit', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Currency')).toHaveValue('USD');
    await page.getByLabel('Amount').fill('25');
    const sent: string[] = [];
    page.on('request', (req) => {
      if (req.method() !== 'GET') sent.push(`${req.method()} ${req.url()}`);
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('status').getByText(messages.portal.depositComingSoon, { exact: true })).toBeVisible();
    expect(sent).toEqual([]);
    await screenshot(page, 'deposit');
  });

  test('the list pages 25 at a time with counters over all; a row opens its details; a Pending one is cancelled with the TPIN', async ({ page, request }) => {
    // 26 withdrawals through the API before the browser starts: more than the default minute on a busy machine.
    test.slow();
    const holder = await fundedHolder(request);
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push(await withdrawViaApi(request, holder, '1.00'));
    const target = ids[0]!; // the oldest: on the second page
    const ops = await login(request, E2E_OPERATOR.email, E2E_OPERATOR.password);
    await operatorMove(request, ops, ids[1]!, 'processing');
    await loginThroughForm(page, holder.email, holder.password);

    const list = new BankWithdrawListPage(page);
    await list.goto();
    await expect(list.rows()).toHaveCount(25);
    // The counters are the server's, over all 26, not over the page shown.
    await expect(list.counter('Total Withdraw')).toHaveText('26');
    await expect(list.counter('Pending')).toHaveText('26');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(list.rows()).toHaveCount(26);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

    // By keyboard: the oldest row's link takes focus and Enter opens the details.
    const link = list.rows().nth(25).getByRole('link');
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/withdraw/bank/${target}$`));
    const details = page.getByRole('region', { name: 'Withdrawal' });
    for (const text of ['Padma Bank', 'Gulshan', 'Bangladesh', '****0099', '125261724', 'Morgan Vale']) await expect(details).toContainText(text);
    await expect(details).not.toContainText('1234500099');
    const history = page.getByRole('region', { name: 'Status history' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history).toContainText('Pending');
    await expectAccessible(page);

    const form = page.getByRole('form', { name: 'Cancel withdrawal' });
    const tpin = form.getByLabel('TPIN', { exact: true });
    await form.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await expect(form.getByText(messages.tpin.required, { exact: true })).toBeVisible();
    await tpin.fill('9999');
    await tpin.press('Enter');
    await expect(page.getByRole('status').getByText(/Incorrect TPIN/)).toBeVisible();
    await expect(tpin).toBeFocused();
    await screenshotsAtWidths(page, 'withdraw-details-pending');
    await tpin.fill(TPIN);
    await tpin.press('Enter');
    await expect(page.getByRole('status').getByText(withdrawMessages.cancelled, { exact: true })).toBeVisible();
    await expect(page.getByRole('status').getByText(/Incorrect TPIN/)).toHaveCount(0);
    await expect(details.locator('[data-status="Cancelled"]')).toHaveClass(/danger/);
    await expect(form).toHaveCount(0);
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(history.getByRole('listitem').nth(1)).toContainText('Cancelled');
    await expectAccessible(page);
    await screenshotsAtWidths(page, 'withdraw-details-cancelled');

    // The held dollar is back (40 - 26 + 1), the row reads Cancelled in red, the operators' queue dropped it.
    await headerBalanceButton(page).click();
    await expect(headerBalanceButton(page)).toHaveText('15.00 USD');
    await page.getByRole('link', { name: 'Bank withdrawals' }).click();
    await expect(list.counter('Pending')).toHaveText('25');
    // Back on the list, the pages already loaded are loaded again (refreshed), so the cancelled row is there.
    await expect(list.rows()).toHaveCount(26);
    await expect(list.rows().nth(25).locator('[data-status="Cancelled"]')).toHaveClass(/danger/);
    await expectAccessible(page);
    await screenshotsAtWidths(page, 'withdraw-bank-list-paged');
    const queue = await request.get('/v1/operator/withdrawals?status=Pending', { headers: auth(ops) });
    expect(((await queue.json()).data as { _id: string }[]).map((w) => w._id)).not.toContain(target);

    // Processing cannot be cancelled: the details page offers no cancel.
    await page.goto(`/withdraw/bank/${ids[1]}`);
    await expect(page.getByRole('region', { name: 'Status history' }).getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('form', { name: 'Cancel withdrawal' })).toHaveCount(0);
  });
});

import { messages, transferMessages } from '@kestrel/shared';
import type { Page } from '@playwright/test';
import { expect, loginThroughForm, screenshot, test, uniqueId } from '../fixtures.ts';
import { auth, balanceOf, freshPair, holderViaApi, TPIN, type Holder } from '../wallet.ts';
import { FundTransferHomePage, headerBalanceButton, RecipientSearchPage, TransactionsPage, TransferFormPage } from '../pages/transfer.page.ts';

/*
 * Wallet-to-wallet transfers in the browser. Every test works on a fresh pair of users with
 * their own accounts. Money only enters the system through the demo accounts, so each sender
 * gets a small float from demo bob: demo alice's US$ 5,000.00 is asserted by the accounts
 * journey, which may run at the same time, so her balance is left alone.
 */

/** The page's content fits the screen: nothing pushes it sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.locator('main').evaluate((main) => main.scrollWidth - main.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function signInAs(page: Page, holder: Holder): Promise<void> {
  await page.context().clearCookies();
  await loginThroughForm(page, holder.email, holder.password);
}

test.describe('fund transfer', () => {
  test('search a recipient by each key, send, and both sides see the money and the transaction @phone', async ({ page, request }) => {
    // Phones: the narrowest width the app supports.
    if (test.info().project.name === 'phone') await page.setViewportSize({ width: 360, height: 780 });
    const { sender, recipient } = await freshPair(request);
    await signInAs(page, sender);

    const home = new FundTransferHomePage(page);
    await home.goto();
    await expect(home.fees).toHaveCount(3);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'fund-transfer-home');
    await home.walletOption.click();

    const search = new RecipientSearchPage(page);
    await expect(search.heading).toBeVisible();
    await expect(page).toHaveURL(/\/fund-transfer\/wallet\/recipient$/);
    await expect(search.noRecent).toBeVisible();
    await screenshot(page, 'recipient-search-empty');

    // E-mail and phone are shown back only to someone who typed them exactly.
    const namePart = recipient.holderName.split(' ')[1]!.toLowerCase();
    for (const [key, shown] of [
      [recipient.accountNumber, undefined],
      [recipient.accountEmail, recipient.accountEmail],
      [recipient.accountPhone, recipient.accountPhone],
      [namePart, undefined],
    ] as const) {
      await search.search(key);
      const found = search.recipient(recipient.userName);
      await expect(found, `search by ${key}`).toBeVisible();
      await expect(search.list().getByRole('link')).toHaveCount(1);
      if (shown) await expect(found).toContainText(shown);
      else {
        await expect(found).not.toContainText(recipient.accountEmail);
        await expect(found).not.toContainText(recipient.accountPhone);
      }
    }
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'recipient-search-results');
    await search.recipient(recipient.userName).click();

    const form = new TransferFormPage(page);
    await expect(form.heading).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/fund-transfer/wallet/recipient/${recipient.userName}$`));
    await expect(form.senderName).toHaveValue(sender.holderName);
    await expect(form.senderName).toHaveAttribute('readonly');
    await expect(form.recipientName).toHaveValue(recipient.holderName);
    await expect(form.recipientName).toHaveAttribute('readonly');
    await expect(form.currency).toHaveValue('USD');
    await form.fill('25.50', TPIN);
    await expect(form.preview).toHaveText('Remaining balance: US$ 14.50');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'transfer-form-filled');
    await form.send.click();

    await expect(form.successToast).toBeVisible();
    await expect(form.backToDashboard).toBeVisible();
    await expect(form.backToDashboard).toBeFocused();
    await expect(form.send).toHaveCount(0);
    await screenshot(page, 'transfer-form-success');
    const transactionId = (await form.transactionId.textContent())!.trim();
    expect(transactionId).not.toBe('');

    // The money moved: sender 40.00 - 25.50, recipient 0 + 25.50. The header, which shares
    // the form's cached account, shows the new balance without a reload.
    expect(await balanceOf(request, sender)).toBe(14.5);
    expect(await balanceOf(request, recipient)).toBe(25.5);
    await headerBalanceButton(page).click();
    await expect(headerBalanceButton(page)).toHaveText('14.50 USD');

    await form.backToDashboard.click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The sender's list shows the transfer as a debit; the recipient is now a recent one.
    const transactions = new TransactionsPage(page);
    await transactions.goto();
    const sent = transactions.entry(transactionId);
    await expect(sent).toBeVisible();
    await expect(sent).toContainText('Fund Transfer');
    await expect(sent).toContainText('US$ 25.50');
    await expect(sent).toContainText('US$ 0.00');
    await expect(sent).toContainText('debit');
    await expect(sent).toContainText(`To ${recipient.accountNumber}`);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'transactions-sender');

    await search.goto();
    await expect(search.recentHeading).toBeVisible();
    await expect(search.recipient(recipient.userName)).toBeVisible();
    await screenshot(page, 'recipient-search-recent');

    // The recipient's list shows it as a credit.
    await signInAs(page, recipient);
    await transactions.goto();
    const received = transactions.entry(transactionId);
    await expect(received).toBeVisible();
    await expect(received).toContainText('US$ 25.50');
    await expect(received).toContainText('credit');
    await expect(received).toContainText(`From ${sender.accountNumber}`);
    await screenshot(page, 'transactions-recipient');
  });

  test('All Transactions shows 50 at a time and loads older ones with Load more', async ({ page, request }) => {
    const { sender, recipient } = await freshPair(request);
    // 55 transfers of one cent after the float: 56 transactions, one page of 50 and 6 more.
    for (let i = 0; i < 55; i++) {
      const sent = await request.post('/v1/account/transfer_balance', {
        headers: { ...auth(sender.token), 'Idempotency-Key': uniqueId('page') },
        data: { debitAccountKey: sender.userName, creditAccountKey: recipient.userName, currency: 'USD', balance: '0.01', tpin: TPIN },
      });
      expect(sent.status(), await sent.text()).toBe(200);
    }
    await signInAs(page, sender);
    const transactions = new TransactionsPage(page);
    await transactions.goto();
    await expect(page.getByText(`Account ${sender.accountNumber} · latest 50 transactions`)).toBeVisible();
    await screenshot(page, 'transactions-load-more');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.getByText(`Account ${sender.accountNumber} · 56 transactions`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    // The oldest, the float from demo bob, is on the second page.
    await expect(page.getByRole('row').filter({ hasText: 'US$ 40.00' })).toHaveCount(1);
  });

  test('the form: field messages, the balance preview, a wrong TPIN', async ({ page, request }) => {
    const { sender, recipient } = await freshPair(request);
    await signInAs(page, sender);
    const form = new TransferFormPage(page);
    await form.goto(recipient.userName);

    await form.send.click();
    await expect(form.message(transferMessages.amountRequired)).toBeVisible();
    await expect(form.message(transferMessages.tpinRequired)).toBeVisible();
    await expect(form.amount).toHaveAttribute('aria-invalid', 'true');
    await screenshot(page, 'transfer-form-messages');

    // The preview shows only for a number that the balance (US$ 40.00) covers.
    await form.amount.fill('10');
    await expect(form.preview).toHaveText('Remaining balance: US$ 30.00');
    await form.amount.fill('40');
    await expect(form.preview).toHaveText('Remaining balance: US$ 0.00');
    await form.amount.fill('40.01');
    await expect(form.preview).toHaveCount(0);
    await expect(form.message('More than your available balance (US$ 40.00).')).toBeVisible();
    await form.amount.fill('abc');
    await expect(form.preview).toHaveCount(0);
    await form.amount.fill('12.5');
    await expect(form.preview).toHaveText('Remaining balance: US$ 27.50');

    // A wrong TPIN: the server's message as a toast, nothing moves, the TPIN is cleared for another go.
    await form.tpin.fill('1357');
    await form.send.click();
    await expect(form.message('Incorrect TPIN. 4 attempts left before money movement is locked.')).toBeVisible();
    await expect(form.tpin).toHaveValue('');
    await expect(form.tpin).toBeFocused();
    await screenshot(page, 'transfer-form-wrong-tpin');
    expect(await balanceOf(request, sender)).toBe(40);
    expect(await balanceOf(request, recipient)).toBe(0);

    // More than the balance: the server refuses it and says why.
    await form.fill('60', TPIN);
    await form.send.click();
    await expect(form.message('Insufficient balance')).toBeVisible();
    expect(await balanceOf(request, sender)).toBe(40);
  });

  test('bank and mobile bank are coming soon; nonsense finds nobody; unknown recipients and areas @phone', async ({ page, request }) => {
    const holder = await holderViaApi(request, 'payer');
    await signInAs(page, holder);

    const home = new FundTransferHomePage(page);
    await home.goto();
    await home.bankOption.click();
    await expect(home.comingSoonToast()).toBeVisible();
    await screenshot(page, 'fund-transfer-coming-soon-toast');
    await home.mobileBankOption.click();
    await expect(home.comingSoonToast()).toBeVisible();

    await page.goto('/fund-transfer/bank');
    await expect(page.getByRole('heading', { name: messages.portal.comingSoon })).toBeVisible();
    await screenshot(page, 'fund-transfer-bank-area');
    await page.goto('/fund-transfer/wallet');
    await expect(page).toHaveURL(/\/fund-transfer\/wallet\/recipient$/);
    await page.goto('/fund-transfer/carrier-pigeon/recipient');
    await expect(page.getByRole('heading', { name: messages.portal.notFound })).toBeVisible();

    const search = new RecipientSearchPage(page);
    await search.goto();
    await search.search(`zz-nobody-${uniqueId()}`);
    await expect(search.noResults).toBeVisible();
    await screenshot(page, 'recipient-search-nothing');
    // One's own account is never offered.
    await search.search(holder.accountNumber);
    await expect(search.noResults).toBeVisible();
    await search.search('');
    await expect(search.noRecent).toBeVisible();

    const form = new TransferFormPage(page);
    await page.goto(`/fund-transfer/wallet/recipient/${uniqueId('ghost')}`);
    await expect(page.getByRole('heading', { name: transferMessages.recipientNotFound })).toBeVisible();
    await expect(form.send).toHaveCount(0);

    const transactions = new TransactionsPage(page);
    await transactions.goto();
    await expect(transactions.empty).toBeVisible();
    await screenshot(page, 'transactions-empty');
  });
});

import { messages, transferMessages, uiText } from '@kestrel/shared';
import { expect, type Locator, type Page } from '@playwright/test';

/** The header's 'View Balance' button; revealed, it reads like '5,000.00 USD'. */
export function headerBalanceButton(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /View Balance|\d\.\d{2} [A-Z]{3}/ });
}

/** /fund-transfer: the three transfer types. */
export class FundTransferHomePage {
  readonly heading: Locator;
  readonly walletOption: Locator;
  readonly bankOption: Locator;
  readonly mobileBankOption: Locator;
  readonly fees: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: uiText.nav.fundTransfer, level: 1 });
    this.walletOption = page.getByRole('link', { name: 'Kestrel to Kestrel' });
    this.bankOption = page.getByRole('button', { name: 'Kestrel to Bank' });
    this.mobileBankOption = page.getByRole('button', { name: 'Kestrel to Mobile Bank' });
    this.fees = page.getByText('Fee 0.00%', { exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto('/fund-transfer');
    await expect(this.heading).toBeVisible();
  }

  comingSoonToast(): Locator {
    return this.page.getByRole('status').getByText(messages.portal.comingSoon, { exact: true });
  }
}

/** /fund-transfer/:area/recipient: the recipient search. */
export class RecipientSearchPage {
  readonly heading: Locator;
  readonly searchBox: Locator;
  readonly recentHeading: Locator;
  readonly noRecent: Locator;
  readonly noResults: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Who do you want to send money to?' });
    this.searchBox = page.getByRole('searchbox', { name: 'Search recipient' });
    this.recentHeading = page.getByRole('heading', { name: 'Recent', exact: true });
    this.noRecent = page.getByText('No recent accounts found!', { exact: true });
    this.noResults = page.getByText('No recipients found.', { exact: true });
  }

  async goto(area = 'wallet'): Promise<void> {
    await this.page.goto(`/fund-transfer/${area}/recipient`);
    await expect(this.heading).toBeVisible();
  }

  /** The section under the box: 'Recent' with an empty box, 'Results' otherwise. */
  recentSection(): Locator {
    return this.page.getByRole('region', { name: 'Recent', exact: true });
  }

  resultsSection(): Locator {
    return this.page.getByRole('region', { name: 'Results', exact: true });
  }

  /** Types into the box and waits until the list answers this text (not the previous one). */
  async search(text: string): Promise<void> {
    await this.searchBox.fill(text);
    const section = text.trim() === '' ? this.recentSection() : this.resultsSection();
    await expect(section).toBeVisible();
    await expect(section).not.toHaveAttribute('aria-busy', 'true');
  }

  /** A result or recent recipient, found by the user name every entry shows ("@name"). */
  recipient(userName: string): Locator {
    return this.page.getByRole('link', { name: `@${userName} ` });
  }

  /** The scrolling list that holds the results (or the recent recipients). */
  list(): Locator {
    return this.page.getByRole('list', { name: /Matching recipients|Recent recipients/ });
  }
}

/** /fund-transfer/:area/recipient/:recipientUserName: 'Complete Transfer'. */
export class TransferFormPage {
  readonly heading: Locator;
  readonly senderName: Locator;
  readonly recipientName: Locator;
  readonly currency: Locator;
  readonly amount: Locator;
  readonly tpin: Locator;
  readonly send: Locator;
  readonly backToDashboard: Locator;
  readonly preview: Locator;
  readonly successToast: Locator;
  readonly transactionId: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Complete Transfer', level: 1 });
    this.senderName = page.getByLabel('Sender name');
    this.recipientName = page.getByLabel('Recipient name');
    this.currency = page.getByLabel('Currency');
    this.amount = page.getByLabel(/^Amount/);
    this.tpin = page.getByLabel('TPIN', { exact: true });
    this.send = page.getByRole('button', { name: 'Send Money' });
    this.backToDashboard = page.getByRole('button', { name: 'Back to Dashboard' });
    this.preview = page.getByText(/^Remaining balance: /);
    this.successToast = page.getByText(transferMessages.success, { exact: true });
    this.transactionId = page.getByText(/^Transaction ID /).locator('span');
  }

  async goto(recipientUserName: string, area = 'wallet'): Promise<void> {
    await this.page.goto(`/fund-transfer/${area}/recipient/${encodeURIComponent(recipientUserName)}`);
    await expect(this.heading).toBeVisible();
  }

  async fill(amount: string, tpin: string): Promise<void> {
    await this.amount.fill(amount);
    await this.tpin.fill(tpin);
  }

  /** A message shown under a field (or in a toast), matched whole. */
  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}

/** /transactions: 'All Transactions' — a table on wide screens, cards on phones. */
export class TransactionsPage {
  readonly heading: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: uiText.nav.transactions, level: 1 });
    this.empty = page.getByText('This Account has No Transactions', { exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto('/transactions');
    await expect(this.heading).toBeVisible();
  }

  /** The visible row (desktop) or card (phone) of one transaction. */
  entry(transactionId: string): Locator {
    return this.page
      .getByRole('row')
      .filter({ hasText: transactionId })
      .or(this.page.getByRole('listitem').filter({ hasText: transactionId }));
  }
}

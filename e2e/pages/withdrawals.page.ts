import { messages, withdrawLabels, withdrawMessages } from '@kestrel/shared';
import { expect, type Locator, type Page } from '@playwright/test';

/** /withdraw: the two ways out. */
export class WithdrawHubPage {
  readonly heading: Locator;
  readonly bankOption: Locator;
  readonly mobileWalletOption: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Withdraw', level: 1 });
    this.bankOption = page.getByRole('link', { name: 'Bank', exact: true });
    this.mobileWalletOption = page.getByRole('button', { name: 'Mobile Wallet' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/withdraw');
    await expect(this.heading).toBeVisible();
  }

  comingSoonToast(): Locator {
    return this.page.getByRole('status').getByText(messages.portal.comingSoon, { exact: true });
  }
}

/** The new bank withdraw form, on /bank/withdraw/new or on /withdraw/bank while there are none. */
export class WithdrawForm {
  readonly form: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'New bank withdraw' });
    this.submit = this.form.getByRole('button', { name: 'Request withdraw' });
  }

  field(name: keyof typeof withdrawLabels): Locator {
    return this.form.getByLabel(withdrawLabels[name], { exact: true });
  }

  async fill(values: {
    country: 'United States' | 'Bangladesh';
    bankName: string;
    branchName?: string;
    accountType?: 'Checking' | 'Savings';
    bankAccountNumber: string;
    routingNumber: string;
    accountHolderName: string;
    amount: string;
    tpin: string;
  }): Promise<void> {
    await this.field('country').selectOption(values.country);
    await this.field('bankName').fill(values.bankName);
    if (values.branchName !== undefined) await this.field('branchName').fill(values.branchName);
    if (values.accountType !== undefined) await this.field('accountType').selectOption({ label: values.accountType });
    await this.field('bankAccountNumber').fill(values.bankAccountNumber);
    await this.field('routingNumber').fill(values.routingNumber);
    await this.field('accountHolderName').fill(values.accountHolderName);
    await this.field('amount').fill(values.amount);
    await this.field('tpin').fill(values.tpin);
  }

  pendingToast(): Locator {
    return this.page.getByRole('status').getByText(withdrawMessages.pending, { exact: true });
  }
}

/** /withdraw/bank: counters and the list. */
export class BankWithdrawListPage {
  readonly heading: Locator;
  readonly newWithdraw: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Bank Withdraw', level: 1 });
    this.newWithdraw = page.getByRole('link', { name: '+ New withdraw' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/withdraw/bank');
    await expect(this.heading).toBeVisible();
  }

  counter(label: 'Completed' | 'Pending' | 'Total Withdraw' | 'Failed'): Locator {
    return this.page.getByRole('region', { name: 'Withdraw counters' }).getByRole('article', { name: label, exact: true }).locator('p');
  }

  /** The rows of the list as the screen shows it (the table on wide screens, cards on phones). */
  rows(): Locator {
    return this.page.locator('table tbody tr:visible, ul[aria-label="Bank withdrawals"] > li:visible');
  }
}

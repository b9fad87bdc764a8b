import { paymentRequestLabels, paymentRequestMessages } from '@kestrel/shared';
import { expect, type Locator, type Page } from '@playwright/test';

/** /payment-request/new: the new payment link form. */
export class NewPaymentRequestForm {
  readonly form: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'New Payment Request' });
    this.submit = this.form.getByRole('button', { name: 'Create payment request' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/payment-request/new');
    await expect(this.form).toBeVisible();
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  amount(field: 'amount' | 'minimumAmount' | 'maximumAmount'): Locator {
    return this.form.getByLabel(`${paymentRequestLabels[field]} (USD)`, { exact: true });
  }

  error(message: string): Locator {
    return this.form.getByText(message, { exact: true });
  }

  async fill(values: {
    purpose: string;
    reference: string;
    fixed?: string;
    range?: { minimum: string; maximum: string };
    useLimit?: string;
    methods?: readonly ('Card' | 'Kestrel')[];
    customer?: { name: string; email: string; phone: string };
    tpin: string;
  }): Promise<void> {
    await this.field(paymentRequestLabels.paymentPurpose).fill(values.purpose);
    await this.field(paymentRequestLabels.reference).fill(values.reference);
    if (values.range) {
      await this.form.getByLabel('Customer choosen').check();
      await this.amount('minimumAmount').fill(values.range.minimum);
      await this.amount('maximumAmount').fill(values.range.maximum);
    } else {
      await this.form.getByLabel('Fixed amount').check();
      await this.amount('amount').fill(values.fixed ?? '');
    }
    if (values.methods) {
      for (const method of ['Card', 'Kestrel'] as const) await this.form.getByLabel(method, { exact: true }).setChecked(values.methods.includes(method));
    }
    if (values.useLimit !== undefined) {
      await this.form.getByLabel('Limit the uses').check();
      await this.field(paymentRequestLabels.useLimit).fill(values.useLimit);
    }
    if (values.customer) {
      await this.field(paymentRequestLabels.customerName).fill(values.customer.name);
      await this.field(paymentRequestLabels.customerEmail).fill(values.customer.email);
      await this.field(paymentRequestLabels.customerPhone).fill(values.customer.phone);
    }
    await this.field(paymentRequestLabels.tpin).fill(values.tpin);
  }

  /** Submits a valid form and waits for the new link's details page; answers the link's address. */
  async create(): Promise<string> {
    await this.submit.click();
    await expect(this.page.getByText(paymentRequestMessages.created, { exact: true })).toBeVisible();
    await expect(this.page).toHaveURL(/\/payment-request\/details\/[^/]+$/);
    return (await this.page.getByTestId('payment-link').textContent())!.trim();
  }
}

/** /payment-request/{pRequestURLId}: the public pay page, as a visitor sees it. */
export class LinkPayPage {
  constructor(readonly page: Page) {}

  heading(text: string): Locator {
    return this.page.getByRole('heading', { name: text });
  }

  async fillCard(card: { number: string; holder?: string }): Promise<void> {
    await this.page.getByLabel('Card number').fill(card.number);
    await this.page.getByLabel('MM/YY').fill('12/34');
    await this.page.getByLabel('CVC').fill('123');
    await this.page.getByLabel('Card holder name').fill(card.holder ?? 'Dana Doe');
  }

  payButton(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name });
  }
}

/** /payment-request: the owner's list of links, a page at a time, with its counters. */
export class PaymentRequestListPage {
  readonly heading: Locator;
  readonly loadMore: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Payment Request', level: 1 });
    this.loadMore = page.getByRole('button', { name: 'Load more' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/payment-request');
    await expect(this.heading).toBeVisible();
  }

  /** A counter's number (Total Refund has a second line under it: the amount refunded). */
  counter(label: 'Total Request' | 'Active Request' | 'Total Payments' | 'Total Refund'): Locator {
    return this.page.getByRole('region', { name: 'Payment request counters' }).getByRole('article', { name: label, exact: true }).locator('p').first();
  }

  /** The rows of the list as the screen shows it (the table on wide screens, cards on phones). */
  rows(): Locator {
    return this.page.locator('table tbody tr:visible, ul[aria-label="Payment links"] > li:visible');
  }
}

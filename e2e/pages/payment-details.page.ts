import { refundMessages } from '@kestrel/shared';
import { expect, type Locator, type Page } from '@playwright/test';

/** /payment/details/{paymentId}: one payment, its refunds, and the owner's refund form (issue 23). */
export class PaymentDetailsPage {
  readonly heading: Locator;
  readonly summary: Locator;
  readonly refundButton: Locator;
  readonly refundForm: Locator;
  readonly refunds: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Payment details', level: 1 });
    this.summary = page.getByRole('region', { name: 'Payment', exact: true });
    this.refundForm = page.getByRole('form', { name: refundMessages.formTitle });
    // The page's button that opens the form (the form replaces it while open).
    this.refundButton = page.getByRole('button', { name: refundMessages.refundButton, exact: true });
    this.refunds = page.getByRole('region', { name: refundMessages.refundsTitle, exact: true });
  }

  async goto(paymentId: string): Promise<void> {
    await this.page.goto(`/payment/details/${paymentId}`);
    await expect(this.heading).toBeVisible();
    await expect(this.summary).toBeVisible();
  }

  field(name: 'amount' | 'reason' | 'tpin'): Locator {
    const labels = { amount: refundMessages.amountLabel, reason: refundMessages.reasonLabel, tpin: refundMessages.tpinLabel };
    return this.refundForm.getByLabel(labels[name], { exact: true });
  }

  submit(): Locator {
    return this.refundForm.getByRole('button', { name: refundMessages.submit, exact: true });
  }

  /** The refunds shown at this width: table rows from md up, cards on phones. */
  refundRows(): Locator {
    return this.refunds.locator('tbody tr:visible, ul > li:visible');
  }
}

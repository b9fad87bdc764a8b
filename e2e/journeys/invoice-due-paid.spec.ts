import { invoiceMessages } from '@kestrel/shared';
import { expect, loginThroughForm, test } from '../fixtures.ts';
import { screenshotWidths } from '../viewports.ts';
import { holderViaApi } from '../wallet.ts';

/*
 * Issue 20, item 13: the invoice form takes an optional due date; the printable invoice shows
 * it and a paid/unpaid status, which its owner switches (invoices have no payment path).
 */

test('an invoice with a due date prints it and UNPAID; the owner marks it paid, and unpaid again', async ({ page, request }) => {
  const holder = await holderViaApi(request, 'biller');
  await loginThroughForm(page, holder.email, holder.password);

  await page.goto('/invoice');
  const form = page.getByRole('form', { name: 'Create invoice' });
  const field = (label: string) => form.getByLabel(label, { exact: true });
  await field('Customer name').fill('Rahim Traders');
  await field('Customer phone').fill('01712345678');
  await field('Customer email').fill('rahim@example.test');
  await field('Receiver name').fill('Karim Uddin');
  await field('Unit Price').fill('12.50');
  await field('Quantity').fill('2');
  await field('Details').fill('Bicycle tyres');
  await field('Due date (optional)').fill('2026-12-31');
  await screenshotWidths(page, 'invoice-form-due-date');
  await form.getByRole('button', { name: 'Create Invoice' }).click();
  await expect(page.getByRole('status').getByText(invoiceMessages.created, { exact: true })).toBeVisible();
  // The form is empty again, the due date too.
  await expect(field('Due date (optional)')).toHaveValue('');

  await page.getByRole('link', { name: 'Invoice INV-000001' }).first().click();
  const sheet = page.getByRole('article', { name: 'Invoice INV-000001' });
  await expect(sheet).toContainText('Due date: December 31st, 2026');
  await expect(sheet.getByTestId('invoice-status')).toHaveText('Unpaid');
  await expect(sheet).toContainText('Total due: US$ 25.00');
  await screenshotWidths(page, 'invoice-unpaid');

  // By keyboard: the button takes focus and Enter marks it paid.
  const markPaid = page.getByRole('button', { name: 'Mark as paid' });
  await markPaid.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').getByText(invoiceMessages.markedPaid, { exact: true })).toBeVisible();
  await expect(sheet.getByTestId('invoice-status')).toHaveText('Paid');
  await expect(sheet).toContainText('Total paid: US$ 25.00');
  // It stays paid after a reload (the server keeps it), and printing shows the status on the sheet.
  await page.reload();
  await expect(sheet.getByTestId('invoice-status')).toHaveText('Paid');
  await page.emulateMedia({ media: 'print' });
  await expect(sheet.getByTestId('invoice-status')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as unpaid' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await screenshotWidths(page, 'invoice-paid');

  await page.getByRole('button', { name: 'Mark as unpaid' }).click();
  await expect(page.getByRole('status').getByText(invoiceMessages.markedUnpaid, { exact: true })).toBeVisible();
  await expect(sheet.getByTestId('invoice-status')).toHaveText('Unpaid');
});

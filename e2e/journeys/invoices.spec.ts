import { invoiceMessages } from '@kestrel/shared';
import { readFile } from 'node:fs/promises';
import { expect, loginThroughForm, registerViaApi, screenshot, test, uniqueId, uniquePhone } from '../fixtures.ts';

/*
 * Invoices in the browser: the empty list, the form's messages, a created invoice listed with
 * its exact total, the printable view (print media shows the invoice alone) and the PDF.
 */

test.describe('invoices', () => {
  test('create an invoice, see it listed with the right total, print it and download the PDF @phone', async ({ page, request }) => {
    const user = await registerViaApi(request);
    const id = uniqueId('inv');
    const created = await request.post('/v1/account/create', {
      headers: { Authorization: `Bearer ${user.token}` },
      data: {
        users: [{ userId: user.userId, tpin: '1234' }],
        accountHolderName: `Nadia Rahman-${id}`,
        userName: id,
        accountEmail: `${id}@wallet.example.test`,
        accountPhone: uniquePhone(),
        accountType: 'personal',
        identity: { type: 'passport', number: `E2E-${id}` },
        dateOfBirth: '1990-01-20',
        address: { street: '1 Test Street', city: 'Dhaka', state: 'DH', zipCode: '1212', country: 'BD' },
        balance: [{ currency: 'USD' }],
        notificationPreference: 'email',
        occupation: 'Trader',
        annualIncome: '50000',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    await loginThroughForm(page, user.email, user.password);

    await page.goto('/invoice');
    await expect(page.getByRole('heading', { name: 'Invoice', level: 1 })).toBeVisible();
    await expect(page.getByText(invoiceMessages.empty, { exact: true })).toBeVisible();
    const form = page.getByRole('form', { name: 'Create invoice' });
    const field = (label: string) => form.getByLabel(label, { exact: true });

    // The form's rules, with the spec's messages.
    await field('Customer phone').fill('01212345678');
    await field('Customer email').fill('not-an-email');
    await field('Unit Price').fill('0.5');
    await field('Quantity').fill('0');
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    for (const message of ['Name is required', 'Invalid Bangladeshi phone number', 'Invalid email address', 'Receiver name is required', 'Must be greater than 0', 'Must be at least 1', 'Details are required']) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await screenshot(page, 'invoice-form-errors');

    await field('Customer name').fill('Rahim Traders');
    await field('Customer phone').fill('01712345678');
    await field('Customer email').fill('rahim@example.test');
    await field('Receiver name').fill('Karim Uddin');
    await field('Unit Price').fill('19.99');
    await field('Quantity').fill('3');
    await field('Details').fill('Bicycle tyres');
    await expect(form.getByText('Total Price: US$ 59.97')).toBeVisible();
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(page.getByRole('status').getByText(invoiceMessages.created, { exact: true })).toBeVisible();

    const row = page.locator('table tbody tr:visible, ul[aria-label="Invoices"] > li:visible').first();
    await expect(row).toContainText('Rahim Traders');
    await expect(row).toContainText('01712345678');
    await expect(row).toContainText('US$ 19.99');
    await expect(row).toContainText('US$ 59.97');
    await expect(page.getByText(invoiceMessages.empty)).toHaveCount(0);
    await screenshot(page, 'invoice-list');

    await page.getByRole('link', { name: 'Invoice INV-000001' }).click();
    await expect(page).toHaveURL(/\/invoice\/[0-9a-f-]{36}$/);
    const sheet = page.getByRole('article', { name: 'Invoice INV-000001' });
    await expect(sheet).toContainText('Rahim Traders');
    // Who is who on the sheet: the customer billed, and the receiver apart.
    await expect(sheet.getByRole('heading', { name: 'Billed to (customer)' })).toBeVisible();
    await expect(sheet.getByRole('heading', { name: 'Receiver (receives the goods or service)' })).toBeVisible();
    await expect(sheet).toContainText('Karim Uddin');
    await expect(sheet).toContainText('Total due: US$ 59.97');
    await screenshot(page, 'invoice-printable');

    // Printing shows the invoice alone.
    await page.emulateMedia({ media: 'print' });
    await expect(sheet).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download PDF' })).toBeHidden();
    await expect(page.getByRole('banner')).toBeHidden();
    await screenshot(page, 'invoice-print-media');
    await page.emulateMedia({ media: 'screen' });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe('INV-000001.pdf');
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

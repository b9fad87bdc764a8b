import { storeMessages } from '@kestrel/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { E2E_OPERATOR } from '../operator.ts';
import { pngImage } from '../pages/account.page.ts';
import { TransferFormPage } from '../pages/transfer.page.ts';
import { auth, freshPair, holderViaApi, loginViaApi, TPIN, type Holder } from '../wallet.ts';

/*
 * The mails a wallet sends (issue 25), seen as a person trying Kestrel locally sees them: a
 * transfer made in the browser, then the development mailbox shows "You sent" to the sender
 * and "You received" to the recipient, each with its HTML part; and a store owner switches the
 * store's "You got paid" mails off and on again, while the customer's receipt comes either way.
 */

interface MailboxRow {
  to: string;
  subject: string;
  text: string;
  template: string | null;
}

/** The mailbox's rows to these addresses (the dispatcher runs after commit: polled). */
async function mailTo(request: APIRequestContext, ...addresses: string[]): Promise<MailboxRow[]> {
  const query = addresses.map((address) => `to=${encodeURIComponent(address)}`).join('&');
  return ((await (await request.get(`/dev/mailbox.json?${query}`)).json()) as { data: MailboxRow[] }).data;
}

async function openMailbox(page: Page, ...addresses: string[]): Promise<void> {
  await page.goto(`/dev/mailbox?${addresses.map((address) => `to=${encodeURIComponent(address)}`).join('&')}`);
}

test.describe('issue 25: the mails a wallet sends', () => {
  test('a transfer in the browser; the mailbox shows "You sent" and "You received", with their HTML parts', async ({ page, request }) => {
    const { sender, recipient } = await freshPair(request);
    await page.context().clearCookies();
    await loginThroughForm(page, sender.email, sender.password);
    const form = new TransferFormPage(page);
    await form.goto(recipient.userName);
    await form.fill('12.34', TPIN);
    await form.send.click();
    await expect(form.successToast).toBeVisible();

    const sentSubject = `You sent US$ 12.34 to ${recipient.holderName}`;
    const receivedSubject = `You received US$ 12.34 from ${sender.holderName}`;
    // The sender's float from demo bob (a business, named by its business name) was mailed too.
    await expect
      .poll(async () => (await mailTo(request, sender.accountEmail, recipient.accountEmail)).map((mail) => mail.subject).sort(), { timeout: 15_000 })
      .toEqual([receivedSubject, sentSubject, "You received US$ 40.00 from Bob's Bikes"].sort());

    await openMailbox(page, sender.accountEmail, recipient.accountEmail);
    const sent = page.getByRole('article').filter({ has: page.getByRole('heading', { name: sentSubject }) });
    const received = page.getByRole('article').filter({ has: page.getByRole('heading', { name: receivedSubject }) });
    await expect(sent).toContainText(`To ${sender.accountEmail}`);
    await expect(sent).toContainText('Amount: US$ 12.34');
    await expect(sent).toContainText(`To: ${recipient.holderName} (${recipient.accountNumber})`);
    await expect(received).toContainText(`To ${recipient.accountEmail}`);
    await expect(received).toContainText(`From: ${sender.holderName} (${sender.accountNumber})`);
    await lookAt(page, 'mailbox-transfer');

    // The HTML part, as a mail client shows it.
    await received.getByRole('link', { name: 'HTML part' }).click();
    await expect(page.getByRole('heading', { level: 1, name: receivedSubject })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See your transactions' })).toHaveAttribute('href', /\/transactions$/);
    await expect(page.getByText('US$ 12.34', { exact: true })).toBeVisible();
    await lookAt(page, 'mail-transfer-received');
  });

  test('the store owner switches "You got paid" off by keyboard and on again; the receipt comes either way', async ({ page, request }) => {
    const owner = await holderViaApi(request, 'payee');
    const { storeId, storeKey, storeName } = await approvedStore(request, owner);
    await page.context().clearCookies();
    await loginThroughForm(page, owner.email, owner.password);
    await page.goto(`/payment-gateway/${storeId}`);
    const toggle = page.getByRole('switch', { name: 'Payment e-mails' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await lookAt(page, 'store-payment-mails-on');

    // First a payment with the mails on: the customer's receipt and the owner's "You got paid".
    const first = await payDirect(request, { storeId, storeKey }, 15);
    await expect.poll(async () => (await mailTo(request, first.customerEmail, owner.accountEmail)).map((mail) => mail.subject).sort(), { timeout: 15_000 }).toEqual(
      [`Your receipt from ${storeName}`, `You got paid US$ 15.00 at ${storeName}`].sort(),
    );

    // Off, by keyboard.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText(storeMessages.paymentMailsOff)).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await lookAt(page, 'store-payment-mails-off');
    const second = await payDirect(request, { storeId, storeKey }, 16);
    // The receipt and the owner's mail are written together, so once the receipt is there, no other mail is coming.
    await expect.poll(async () => (await mailTo(request, second.customerEmail)).map((mail) => mail.subject), { timeout: 15_000 }).toEqual([`Your receipt from ${storeName}`]);
    expect((await mailTo(request, owner.accountEmail)).map((mail) => mail.subject)).toEqual([`You got paid US$ 15.00 at ${storeName}`]);

    // And on again (the page read afresh keeps the server's state).
    await page.reload();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(page.getByText(storeMessages.paymentMailsOn)).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await payDirect(request, { storeId, storeKey }, 17);
    await expect
      .poll(async () => (await mailTo(request, owner.accountEmail)).map((mail) => mail.subject).sort(), { timeout: 15_000 })
      .toEqual([`You got paid US$ 15.00 at ${storeName}`, `You got paid US$ 17.00 at ${storeName}`].sort());

    await openMailbox(page, owner.accountEmail, first.customerEmail);
    await expect(page.getByRole('article')).toHaveCount(3);
    await lookAt(page, 'mailbox-store-payments');
  });
});

/** A store for this holder, created through the API and approved by the e2e operator. */
async function approvedStore(request: APIRequestContext, owner: Holder) {
  const storeName = `Quill Mail ${owner.userName}`;
  const created = await request.post('/v1/payment_gateway_store/create', {
    headers: auth(owner.token),
    multipart: {
      accountKey: owner.accountNumber,
      tpin: TPIN,
      storeName,
      storeURL: 'https://quill-mail.example',
      callbackURL: 'https://quill-mail.example/kestrel/callback',
      storeLogo: pngImage('logo.png', 31),
      businessDocuments: pngImage('licence.png', 37),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { storeId, storeKey } = (await created.json()).data as { storeId: string; storeKey: string };
  const operatorToken = await loginViaApi(request, E2E_OPERATOR.email, E2E_OPERATOR.password);
  const approved = await request.post(`/v1/operator/stores/${storeId}/approve`, { headers: auth(operatorToken), data: { reason: 'Documents checked' } });
  expect(approved.status(), await approved.text()).toBe(200);
  return { storeId, storeKey, storeName };
}

/** A card payment to the store, server to server; the customer's e-mail is new each time. */
async function payDirect(request: APIRequestContext, store: { storeId: string; storeKey: string }, amount: number) {
  const orderId = uniqueId('mail-order');
  const customerEmail = `${orderId}@customer.example.test`;
  const response = await request.post('/v1/payment/web-pay/complete/direct', {
    headers: { ...store, 'Idempotency-Key': orderId },
    data: {
      orderId,
      currency: 'USD',
      amount,
      customerName: 'Casey Customer',
      customerEmail,
      customerPhone: '+15550100088',
      customerAddress: '8 Market Street',
      productName: 'Notebook',
      cancelUrl: 'https://quill-mail.example/cart',
      type: 'card',
      number: '4242 4242 4242 4242',
      expiresIn: '12/34',
      cvc: '123',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { orderId, customerEmail };
}

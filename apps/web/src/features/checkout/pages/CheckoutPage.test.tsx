import { checkoutView, stepUpMessages, type CheckoutView } from '@kestrel/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountFixture, userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { CheckoutPage } from './CheckoutPage.tsx';
import { fieldError, typeInto } from '../../../test/form.ts';

const paymentPath = 'GET /v1/payment/url-5';
const cardPayPath = 'POST /v1/payment/complete/pay-5';
const walletPayPath = 'POST /v1/payment/complete/kestrel/pay-5';
const returnUrl = 'https://shop.example.test/thanks?order=order-5&sig=abc';

/** The checkout's payment as GET /v1/payment/{urlId} answers it: US$ 12.00 for a bike, not paid yet. */
function checkoutFixture(overrides: Partial<CheckoutView> = {}): CheckoutView {
  return checkoutView.parse({
    paymentId: 'pay-5',
    storeName: 'Corner Shop',
    storeLogo: '/v1/payment_gateway_store/S1/logo',
    amount: 12,
    currency: 'USD',
    paymentStatus: 'initiate',
    cancelUrl: 'https://shop.example.test/cart',
    redirectUrl: null,
    productName: 'Bike',
    orderId: 'order-5',
    transactionId: null,
    paidAt: null,
    paymentSource: null,
    ...overrides,
  });
}
const paid = (overrides: Partial<CheckoutView> = {}) =>
  checkoutFixture({
    paymentStatus: 'success',
    redirectUrl: returnUrl,
    transactionId: 'TX-55',
    paidAt: '2026-11-26T10:00:00.000Z',
    paymentSource: { type: 'card', brand: 'masterCard', number: '555555******4444' },
    ...overrides,
  });

const paidAnswer = {
  status: 200,
  body: {
    status: 'success',
    message: 'Congratulations! Payment successfull',
    redirectUrl: returnUrl,
    data: { paymentStatus: 'success', tnxId: 'TX-55', orderId: 'order-5', currency: 'USD', amount: 12, paymentId: 'pay-5' },
  },
};

function receiptLines(): [string, string][] {
  const receipt = screen.getByRole('region', { name: 'Payment Successful!' });
  return within(receipt)
    .getAllByRole('term')
    .map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']);
}

const renderCheckout = () => renderPage(<CheckoutPage urlId="url-5" />, { path: '/web-pay/url-5' });

describe('the hosted checkout', () => {
  beforeEach(() => {
    toast.remove();
  });

  it('shows the store, what is bought, the amount as US$ with .00 when whole, a cancel cross to the store, and the card tab', async () => {
    stubApi({ [paymentPath]: success(checkoutFixture()) });
    renderCheckout();
    expect(await screen.findByText('Corner Shop')).toBeTruthy();
    expect(screen.getByTestId('checkout-product').textContent).toBe('Bike');
    expect(screen.getByTestId('checkout-order').textContent).toBe('order-5');
    expect(screen.getByTestId('checkout-amount').textContent).toBe('US$ 12.00');
    expect(screen.getByRole('link', { name: 'Cancel payment and return to the store' }).getAttribute('href')).toBe('https://shop.example.test/cart');
    expect(screen.getByRole('tab', { name: 'Cards', selected: true })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Pay US$ 12.00' })).toBeTruthy();
  });

  it('shows the store’s initial when its logo cannot be loaded', async () => {
    stubApi({ [paymentPath]: success(checkoutFixture()) });
    const { container } = renderCheckout();
    await screen.findByText('Corner Shop');
    const logo = container.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('/v1/payment_gateway_store/S1/logo');
    fireEvent.error(logo!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('C')).toBeTruthy();
  });

  it('shows the card form’s messages and sends nothing', async () => {
    const calls = stubApi({ [paymentPath]: success(checkoutFixture()) });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    await waitFor(() => expect(fieldError('Card number')).toBe('Please enter card number'));
    expect(fieldError('MM/YY')).toBe('Expires date is required');
    expect(fieldError('CVC')).toBe('CVC is required');
    expect(fieldError('Card holder name')).toBe('Card holder name is required');
    expect(writes(calls)).toEqual([]);
  });

  it('says "Broken Payment!" for a payment that is not found', async () => {
    stubApi({ [paymentPath]: { status: 404, body: { status: 'error', error: 'Payment not found', code: 'not_found' } } });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'Broken Payment!' })).toBeTruthy();
    expect(screen.getByText('Please check the payment link or contact support.')).toBeTruthy();
  });

  it('shows a paid payment’s receipt: store, product, order, payment and transaction IDs, the card’s last 4 and a way back to the store', async () => {
    stubApi({ [paymentPath]: success(paid()) });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('receipt-amount').textContent).toBe('US$ 12.00');
    const lines = receiptLines();
    expect(lines.slice(0, -1)).toEqual([
      ['Store', 'Corner Shop'],
      ['Product', 'Bike'],
      ['Order ID', 'order-5'],
      ['Payment ID', 'pay-5'],
      ['Transaction ID', 'TX-55'],
      ['Paid with', 'Mastercard ending 4444'],
    ]);
    expect(lines.at(-1)?.[0]).toBe('Date');
    expect(screen.getByRole('link', { name: 'Return to the store' }).getAttribute('href')).toBe(returnUrl);
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('names a wallet payment on the receipt by the wallet and its last 4, and offers no return without a store address', async () => {
    stubApi({ [paymentPath]: success(paid({ redirectUrl: null, paymentSource: { type: 'wallet', brand: 'Kestrel', number: '****0100' } })) });
    renderCheckout();
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    expect(receiptLines()).toContainEqual(['Paid with', 'Kestrel wallet ending 0100']);
    expect(screen.queryByRole('link', { name: 'Return to the store' })).toBeNull();
  });

  it('pays by card, toasts the spec’s success, shows the receipt read again, and returns to the store after 2 seconds', async () => {
    let isPaid = false;
    const calls = stubApi({
      [paymentPath]: () => success(isPaid ? paid() : checkoutFixture()),
      [cardPayPath]: () => {
        isPaid = true;
        return paidAnswer;
      },
    });
    const redirect = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderCheckout();
    await screen.findByLabelText('Card number');
    await typeInto(user, 'Card number', '5555555555554444');
    await typeInto(user, 'MM/YY', '1230');
    await typeInto(user, 'CVC', '321');
    await typeInto(user, 'Card holder name', 'Dana Doe');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    expect(await screen.findByText('Congratulations! Payment successfull')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    expect(receiptLines()).toContainEqual(['Transaction ID', 'TX-55']);
    expect(writes(calls)).toEqual([
      ['POST', '/v1/payment/complete/pay-5', { type: 'card', brand: 'masterCard', number: '5555 5555 5555 4444', expiresIn: '12/30', cvc: '321', cardHolderName: 'Dana Doe' }],
    ]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    expect(redirect).not.toHaveBeenCalled();
    await waitFor(() => expect(redirect).toHaveBeenCalledWith(returnUrl), { timeout: 4000 });
  });

  it('on the wallet tab, shows the signed-in payer’s accounts by name with their balance and the TPIN’s messages, then pays', async () => {
    signIn();
    const calls = stubApi({
      [paymentPath]: success(checkoutFixture()),
      [`GET /v1/user/${signedIn.userId}`]: success(userProfileFixture()),
      [`GET /v1/account/${signedIn.account.accountNumber}`]: success(accountFixture()),
      [walletPayPath]: { ...paidAnswer, body: { ...paidAnswer.body, redirectUrl: undefined } },
    });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('tab', { name: 'Kestrel' }));
    const account = (await screen.findByLabelText('Account')) as HTMLSelectElement;
    expect(screen.getByTestId('wallet-user').textContent).toBe(signedIn.account.accountEmail);
    expect(within(account).getAllByRole('option').map((option) => option.textContent)).toEqual(['Ada Lovelace · US$ 250.50']);
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    await waitFor(() => expect(fieldError('TPIN')).toBe('Enter 4-digit TPIN'));
    await typeInto(user, 'TPIN', '12');
    expect(fieldError('TPIN')).toBe('Invalid TPIN');
    await typeInto(user, 'TPIN', '123456');
    expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe('1234');
    expect(writes(calls)).toEqual([]);
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    expect(await screen.findByText('Congratulations! Payment successfull')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/payment/complete/kestrel/pay-5', { userId: signedIn.userId, accountNumber: signedIn.account.accountNumber, tpin: '1234' }]]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Authorization')).toBe(signedIn.token);
  });

  it('above the step-up threshold: shows the app-code message with a "Verification code" field, refuses an empty one, shows a wrong one under the field, and pays with the same key', async () => {
    signIn();
    const answers = [
      { status: 403, body: { status: 'error', error: stepUpMessages.requiredApp, code: 'step_up_required' } },
      { status: 403, body: { status: 'error', error: stepUpMessages.invalidApp, code: 'step_up_invalid', fields: { stepUpCode: stepUpMessages.invalidApp } } },
      { ...paidAnswer, body: { ...paidAnswer.body, redirectUrl: undefined } },
    ];
    const calls = stubApi({
      [paymentPath]: success(checkoutFixture()),
      [`GET /v1/user/${signedIn.userId}`]: success(userProfileFixture()),
      [`GET /v1/account/${signedIn.account.accountNumber}`]: success(accountFixture()),
      [walletPayPath]: () => answers.shift()!,
    });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('tab', { name: 'Kestrel' }));
    await screen.findByLabelText('Account');
    await typeInto(user, 'TPIN', '1234');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));

    // Not a failure toast: the server's message, and the field under it, focused.
    expect((await screen.findByRole('status')).textContent).toBe(stepUpMessages.requiredApp);
    const code = screen.getByLabelText('Verification code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(screen.queryByText('Payment failed!')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    expect(fieldError('Verification code')).toBe(stepUpMessages.codeRequired);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);

    await user.type(code, '111111');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    await waitFor(() => expect(fieldError('Verification code')).toBe(stepUpMessages.invalidApp));
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('');

    await user.type(screen.getByLabelText('Verification code'), '222222');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.00' }));
    expect(await screen.findByText('Congratulations! Payment successfull')).toBeTruthy();
    const pay = { userId: signedIn.userId, accountNumber: signedIn.account.accountNumber, tpin: '1234' };
    expect(writes(calls)).toEqual([
      ['POST', '/v1/payment/complete/kestrel/pay-5', pay],
      ['POST', '/v1/payment/complete/kestrel/pay-5', { ...pay, stepUpCode: '111111' }],
      ['POST', '/v1/payment/complete/kestrel/pay-5', { ...pay, stepUpCode: '222222' }],
    ]);
    const keys = calls.filter((call) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/.{16,}/);
    expect(new Set(keys).size).toBe(1);
  });

  it('offers no wallet pay button when the chosen account cannot cover the amount, and names a business account by its business name', async () => {
    signIn();
    stubApi({
      [paymentPath]: success(checkoutFixture({ amount: 250.51 })),
      [`GET /v1/user/${signedIn.userId}`]: success(userProfileFixture()),
      [`GET /v1/account/${signedIn.account.accountNumber}`]: success(accountFixture({ accountType: 'business', businessName: 'Lovelace Engines', companyName: 'Lovelace Engines Ltd' })),
    });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('tab', { name: 'Kestrel' }));
    const account = (await screen.findByLabelText('Account')) as HTMLSelectElement;
    expect(within(account).getAllByRole('option').map((option) => option.textContent)).toEqual(['Lovelace Engines · US$ 250.50']);
    expect(screen.getByText("This account's balance is too low for this payment.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay US$ 250.51' })).toBeNull();
  });

  it('asks a visitor without a session to sign in to the wallet: "Please enter the email", "Password missing"', async () => {
    const calls = stubApi({ [paymentPath]: success(checkoutFixture()) });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('tab', { name: 'Kestrel' }));
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(fieldError('Email')).toBe('Please enter the email'));
    expect(fieldError('Password')).toBe('Password missing');
    expect(writes(calls)).toEqual([]);
  });
});

import { publicPaymentRequestView, stepUpMessages, type PublicPaymentRequestView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountFixture, userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { PaymentRequestPayPage } from './PaymentRequestPayPage.tsx';
import { fieldError, typeInto } from '../../../test/form.ts';

const linkPath = 'GET /v1/payment-request/link/u7';
const cardPayPath = 'POST /v1/payment-request/card/complete-payment/u7';

/** A public link as GET /v1/payment-request/link/{id} answers it: by default US$ 40.00 fixed, card or wallet. */
function linkFixture(overrides: Partial<PublicPaymentRequestView> = {}): PublicPaymentRequestView {
  return publicPaymentRequestView.parse({
    pRequestURLId: 'u7',
    status: 'active',
    paymentPurpose: 'Bike service',
    reference: 'R-42',
    ownerName: 'Corner Shop',
    amount: { type: 'fixed', currency: 'USD', value: 40 },
    minimumAmount: null,
    maximumAmount: null,
    paymentMethods: ['Card', 'Kestrel'],
    isUseLimit: false,
    limitReached: false,
    expired: false,
    expiresAt: null,
    ...overrides,
  });
}
/** A link whose payer chooses the amount, from US$ 5.00 to US$ 500.00. */
const customLink = linkFixture({ amount: { type: 'customer-choosen', currency: 'USD', value: null }, minimumAmount: 5, maximumAmount: 500 });

const paidAnswer = (amount: number) => ({
  status: 200,
  body: { status: 'success', message: 'Congratulations! Payment successfull', data: { transactionId: 'TX-31', amount, currency: 'USD', paymentId: 'lp-9' } },
});

type User = ReturnType<typeof renderPage>['user'];

async function fillCard(user: User) {
  await typeInto(user, 'Your email', 'dana@example.test');
  await typeInto(user, 'Card number', '4242424242424242');
  await typeInto(user, 'MM/YY', '1234');
  await typeInto(user, 'CVC', '123');
  await typeInto(user, 'Card holder name', 'Dana Doe');
}

const renderPay = () => renderPage(<PaymentRequestPayPage pRequestURLId="u7" />, { path: '/payment-request/u7' });

/** The receipt's lines as [label, value] pairs. */
function receiptLines(): [string, string][] {
  const receipt = screen.getByRole('region', { name: 'Payment Successful!' });
  const terms = within(receipt).getAllByRole('term');
  return terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']);
}

describe('the public payment-request page', () => {
  beforeEach(() => {
    toast.remove();
  });

  it('shows a fixed link’s amount and purpose, with Pay US$ 40.00 and no amount field', async () => {
    stubApi({ [linkPath]: success(linkFixture()) });
    renderPay();
    expect(await screen.findByRole('heading', { name: 'Bike service' })).toBeTruthy();
    expect(screen.getByText('Corner Shop')).toBeTruthy();
    expect(screen.getByText('Reference R-42')).toBeTruthy();
    expect(screen.getByTestId('link-amount').textContent).toBe('US$ 40.00');
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Cards', selected: true })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Pay US$ 40.00' })).toBeTruthy();
  });

  it('shows every required message of a custom amount and the card, and sends nothing', async () => {
    const calls = stubApi({ [linkPath]: success(customLink) });
    const { user } = renderPay();
    expect(await screen.findByText(/Choose an amount between/)).toBeTruthy();
    expect(screen.getByText(/Choose an amount between/).textContent).toBe('Choose an amount between US$ 5.00 and US$ 500.00.');
    await user.click(await screen.findByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(fieldError('Amount (USD)')).toBe('Please enter amount'));
    expect(fieldError('Your email')).toBe('Email is required');
    expect(fieldError('Card number')).toBe('Please enter card number');
    expect(fieldError('MM/YY')).toBe('Expires date is required');
    expect(fieldError('CVC')).toBe('CVC is required');
    expect(fieldError('Card holder name')).toBe('Card holder name is required');
    expect(writes(calls)).toEqual([]);
  });

  it('says "Use only digits!" for a custom amount holding anything but digits and one point, and names the range when out of it', async () => {
    const calls = stubApi({ [linkPath]: success(customLink) });
    const { user } = renderPay();
    await screen.findByLabelText('Amount (USD)');
    await fillCard(user);
    for (const [amount, message] of [
      ['12a', 'Use only digits!'],
      ['1.2.3', 'Use only digits!'],
      ['-7', 'Use only digits!'],
      ['1,000', 'Use only digits!'],
      ['12.345', 'Enter an amount greater than 0 with at most two decimals'],
      ['4.99', 'Amount must be between US$ 5.00 and US$ 500.00'],
      ['500.01', 'Amount must be between US$ 5.00 and US$ 500.00'],
    ] as const) {
      await typeInto(user, 'Amount (USD)', amount);
      // The field keeps what was typed: the message explains it rather than the text vanishing.
      expect((screen.getByLabelText('Amount (USD)') as HTMLInputElement).value).toBe(amount);
      await user.click(screen.getByRole('button', { name: /^Pay/ }));
      await waitFor(() => expect(fieldError('Amount (USD)')).toBe(message));
    }
    expect(writes(calls)).toEqual([]);
  });

  it('names the typed amount on the pay button, and accepts both ends of the range', async () => {
    stubApi({ [linkPath]: success(customLink) });
    const { user } = renderPay();
    await screen.findByLabelText('Amount (USD)');
    await typeInto(user, 'Amount (USD)', '12.5');
    expect(await screen.findByRole('button', { name: 'Pay US$ 12.50' })).toBeTruthy();
    await typeInto(user, 'Amount (USD)', '5');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 5.00' }));
    await waitFor(() => expect(fieldError('Your email')).toBe('Email is required'));
    expect(fieldError('Amount (USD)')).toBeNull();
    await typeInto(user, 'Amount (USD)', '500');
    expect(fieldError('Amount (USD)')).toBeNull();
  });

  it('groups the card number in fours, puts the slash in the expiry, and wants a 3-digit CVC and a real email', async () => {
    const calls = stubApi({ [linkPath]: success(linkFixture()) });
    const { user } = renderPay();
    await screen.findByLabelText('Card number');
    await typeInto(user, 'Card number', '42424242424242424242');
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    await typeInto(user, 'MM/YY', '12345');
    expect((screen.getByLabelText('MM/YY') as HTMLInputElement).value).toBe('12/34');
    await typeInto(user, 'CVC', '12');
    await typeInto(user, 'Your email', 'dana@');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    await waitFor(() => expect(fieldError('CVC')).toBe('CVC must be a 3-digit number'));
    expect(fieldError('Your email')).toBe('Enter a valid email address');
    expect(writes(calls)).toEqual([]);
  });

  it('pays a custom amount by card, toasts the spec’s success and shows the receipt', async () => {
    const calls = stubApi({ [linkPath]: success(customLink), [cardPayPath]: paidAnswer(12.5) });
    const { user } = renderPay();
    await screen.findByLabelText('Amount (USD)');
    await typeInto(user, 'Amount (USD)', '12.5');
    await fillCard(user);
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 12.50' }));
    expect(await screen.findByText('Congratulations! Payment successfull')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('receipt-amount').textContent).toBe('US$ 12.50');
    const lines = receiptLines();
    expect(lines.slice(0, -1)).toEqual([
      ['Paid to', 'Corner Shop'],
      ['Purpose', 'Bike service'],
      ['Reference', 'R-42'],
      ['Payment ID', 'lp-9'],
      ['Transaction ID', 'TX-31'],
      ['Paid with', 'Visa ending 4242'],
    ]);
    expect(lines.at(-1)?.[0]).toBe('Date');
    expect(screen.getByRole('button', { name: 'Print' })).toBeTruthy();
    // The amount goes as exact text with two decimals; the card as typed, its brand inferred.
    expect(writes(calls)).toEqual([
      [
        'POST',
        '/v1/payment-request/card/complete-payment/u7',
        { email: 'dana@example.test', reference: 'R-42', amount: '12.50', type: 'card', brand: 'visa', number: '4242 4242 4242 4242', expiresIn: '12/34', cvc: '123', cardHolderName: 'Dana Doe' },
      ],
    ]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
  });

  it('shows the server’s refusal, or "An unexpected error occurred." when the answer says nothing readable', async () => {
    let answer: { status: number; body: unknown } = { status: 402, body: { status: 'error', error: 'Your card was declined', code: 'card_declined' } };
    stubApi({ [linkPath]: success(linkFixture()), [cardPayPath]: () => answer });
    const { user } = renderPay();
    await screen.findByLabelText('Card number');
    await fillCard(user);
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    expect(await screen.findByText('Your card was declined')).toBeTruthy();

    answer = { status: 502, body: { unexpected: true } };
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    expect(await screen.findByText('An unexpected error occurred.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Payment Successful!' })).toBeNull();
  });

  it('reads the link again when it was used up while open, and then says "Limit Exceeded!"', async () => {
    let used = false;
    stubApi({
      [linkPath]: () => success(linkFixture({ isUseLimit: true, limitReached: used })),
      [cardPayPath]: () => {
        used = true;
        return { status: 410, body: { status: 'error', error: 'Payment denied: link reached limit...', code: 'limit_exceeded' } };
      },
    });
    const { user } = renderPay();
    await screen.findByLabelText('Card number');
    await fillCard(user);
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    expect(await screen.findByRole('heading', { name: 'Limit Exceeded!' })).toBeTruthy();
  });

  it('shows the spec’s page states: disabled, limit reached, expired, not found', async () => {
    const states: [Partial<PublicPaymentRequestView> | 'missing', string, string][] = [
      [{ status: 'inactive' }, 'Payment Request Disabled!', 'This payment link is inactive. Please contact the sender or support.'],
      [{ isUseLimit: true, limitReached: true }, 'Limit Exceeded!', 'Payment denied: link reached limit...'],
      [{ expired: true, expiresAt: '2026-11-01T10:00:00.000Z' }, 'Payment Link Expired!', 'This payment link no longer accepts payments. Ask the sender for a new link.'],
      ['missing', 'Payment request not found', 'Please check the payment link or contact support.'],
    ];
    for (const [state, title, hint] of states) {
      stubApi({
        [linkPath]: state === 'missing' ? { status: 404, body: { status: 'error', error: 'Payment request not found', code: 'not_found' } } : success(linkFixture(state)),
      });
      const { unmount } = renderPay();
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
      expect(screen.getByText(hint)).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
      unmount();
    }
  });

  it('opens on the first method the link allows: a wallet-first link opens the wallet login', async () => {
    stubApi({ [linkPath]: success(linkFixture({ paymentMethods: ['Kestrel', 'Card'] })) });
    const { user } = renderPay();
    expect(await screen.findByRole('tab', { name: 'Kestrel', selected: true })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(fieldError('Email')).toBe('Please enter the email'));
    expect(fieldError('Password')).toBe('Password missing');
  });

  it('above the step-up threshold: a wallet pay shows the e-mailed-code message with a "Verification code" field and pays with the code under the same key', async () => {
    signIn();
    const answers = [{ status: 403, body: { status: 'error', error: stepUpMessages.requiredEmail, code: 'step_up_required' } }, paidAnswer(40)];
    const calls = stubApi({
      [linkPath]: success(linkFixture({ paymentMethods: ['Kestrel', 'Card'] })),
      [`GET /v1/user/${signedIn.userId}`]: success(userProfileFixture()),
      [`GET /v1/account/${signedIn.account.accountNumber}`]: success(accountFixture()),
      'POST /v1/payment-request/kestrel/complete-payment/u7': () => answers.shift()!,
    });
    const { user } = renderPay();
    await screen.findByLabelText('Account');
    await typeInto(user, 'TPIN', '1234');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    expect((await screen.findByRole('status')).textContent).toBe(stepUpMessages.requiredEmail);
    expect(screen.queryByText('Payment failed!')).toBeNull();
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(await screen.findByRole('button', { name: 'Pay US$ 40.00' }));
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    const pay = { reference: 'R-42', amount: '40.00', userId: signedIn.userId, accountNumber: signedIn.account.accountNumber, tpin: '1234' };
    expect(writes(calls)).toEqual([
      ['POST', '/v1/payment-request/kestrel/complete-payment/u7', pay],
      ['POST', '/v1/payment-request/kestrel/complete-payment/u7', { ...pay, stepUpCode: '123456' }],
    ]);
    const keys = calls.filter((call) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/.{16,}/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('offers only the card to a card-only link', async () => {
    stubApi({ [linkPath]: success(linkFixture({ paymentMethods: ['Card'] })) });
    renderPay();
    expect(await screen.findByRole('tab', { name: 'Cards', selected: true })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Kestrel' })).toBeNull();
  });
});

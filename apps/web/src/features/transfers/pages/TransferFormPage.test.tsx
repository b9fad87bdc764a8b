import { screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import toast from 'react-hot-toast';
import { stepUpMessages, stepUpText } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { PortalUserContext } from '../../../lib/portal-user.ts';
import { accountFixture, userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success, writes, type StubbedCall } from '../../../test/render.tsx';
import { TransferFormPage } from './TransferFormPage.tsx';
import { fieldError } from '../../../test/form.ts';

const pattern = '/fund-transfer/:area/recipient/:recipientUserName';
const formPath = '/fund-transfer/wallet/recipient/grace';
const transferPath = 'POST /v1/account/transfer_balance';

/** Grace, the recipient picked in the search (GET /v1/recipients/grace). */
const grace = { _id: 'acc-2', accountNumber: 'B200', accountType: 'personal', accountHolderName: 'Grace Hopper', businessName: null, userName: 'grace' };

/** The sender's account (balance US$ 250.50) and the recipient. */
const lookups = {
  [`GET /v1/account/${signedIn.account.accountNumber}`]: success(accountFixture()),
  'GET /v1/recipients/grace': success(grace),
};

const sent = (amount: string, balance: string) =>
  success({
    transactionId: 'TX-77',
    amount: Number(amount),
    currency: 'USD',
    debitAccountKey: signedIn.account.userName,
    creditAccountKey: 'grace',
    balance: Number(balance),
    transactionAt: '2026-11-26T10:00:00.000Z',
  });

const wrongTpin = { status: 400, body: { status: 'error', error: 'Incorrect TPIN', code: 'tpin_incorrect' } };

function renderTransfer(path = formPath, routes: Record<string, ReactElement> = {}) {
  return renderPage(
    <PortalUserContext value={userProfileFixture()}>
      <TransferFormPage />
    </PortalUserContext>,
    { path, pattern, routes },
  );
}

/** The amount's label names the chosen currency's prefix. */
const amountLabel = 'Amount (US$)';

async function fill(user: ReturnType<typeof renderPage>['user'], amount: string, tpin: string) {
  const amountInput = await screen.findByLabelText(amountLabel);
  await user.clear(amountInput);
  if (amount) await user.type(amountInput, amount);
  await user.clear(screen.getByLabelText('TPIN'));
  if (tpin) await user.type(screen.getByLabelText('TPIN'), tpin);
}

const send = (user: ReturnType<typeof renderPage>['user']) => user.click(screen.getByRole('button', { name: 'Send Money' }));

describe('the Complete Transfer form', () => {
  beforeEach(() => {
    signIn();
    // The pending transfer's Idempotency-Key waits in sessionStorage; each test starts without one.
    sessionStorage.clear();
    // react-hot-toast keeps its toasts in module state: no toast of an earlier test shows here.
    toast.remove();
  });

  it('shows the sender and recipient read-only, USD chosen and the available balance', async () => {
    stubApi(lookups);
    renderTransfer();
    expect(await screen.findByRole('heading', { name: 'Complete Transfer' })).toBeTruthy();
    const senderName = screen.getByLabelText('Sender name') as HTMLInputElement;
    const recipientName = screen.getByLabelText('Recipient name') as HTMLInputElement;
    expect([senderName.value, senderName.readOnly]).toEqual(['Ada Lovelace', true]);
    expect([recipientName.value, recipientName.readOnly]).toEqual(['Grace Hopper', true]);
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).value).toBe('USD');
    expect(screen.getByText('Available balance: US$ 250.50')).toBeTruthy();
    expect((screen.getByLabelText('TPIN') as HTMLInputElement).type).toBe('password');
  });

  it('shows the spec’s required messages and sends nothing', async () => {
    const calls = stubApi(lookups);
    const { user } = renderTransfer();
    await screen.findByLabelText(amountLabel);
    await user.selectOptions(screen.getByLabelText('Currency'), 'Select');
    // With no currency chosen the label is the plain 'Amount' and no balance is previewed.
    expect(screen.queryByText(/Available balance/)).toBeNull();
    await send(user);
    await waitFor(() => expect(fieldError('Currency')).toBe('Currency is required!'));
    expect(fieldError('Amount')).toBe('Amount is required!');
    expect(fieldError('TPIN')).toBe('TPIN is required');
    expect(writes(calls)).toEqual([]);
  });

  it('refuses a third decimal, zero and text as the amount, and a TPIN that is not 4 digits', async () => {
    const calls = stubApi(lookups);
    const { user } = renderTransfer();
    const amountInvalid = 'Enter an amount greater than 0 with at most two decimals';
    for (const [amount, tpin] of [
      ['1.005', '12'],
      ['0', '12a'],
      ['0.00', 'abcd'],
      ['12,50', '123'],
      ['-5', '1 34'],
    ] as const) {
      await fill(user, amount, tpin);
      await send(user);
      await waitFor(() => expect(fieldError(amountLabel)).toBe(amountInvalid));
      expect(fieldError('TPIN')).toBe('TPIN must be 4 digits');
    }
    expect(writes(calls)).toEqual([]);
  });

  it('takes at most 4 TPIN characters', async () => {
    stubApi(lookups);
    const { user } = renderTransfer();
    await fill(user, '', '123456');
    expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe('1234');
  });

  it('previews the remaining balance only for a numeric amount within the balance', async () => {
    stubApi(lookups);
    const { user } = renderTransfer();
    await fill(user, '50', '');
    expect(await screen.findByText('Remaining balance: US$ 200.50')).toBeTruthy();
    await fill(user, '250.5', '');
    expect(await screen.findByText('Remaining balance: US$ 0.00')).toBeTruthy();
    await fill(user, '250.51', '');
    expect(await screen.findByText('More than your available balance (US$ 250.50).')).toBeTruthy();
    expect(screen.queryByText(/Remaining balance/)).toBeNull();
    await fill(user, '12.345', '');
    expect(await screen.findByText('Available balance: US$ 250.50')).toBeTruthy();
    expect(screen.queryByText(/Remaining balance/)).toBeNull();
  });

  it('sends the transfer once with an Idempotency-Key and the amount as exact text, toasts "Fund transfer successfull" and offers Back to Dashboard', async () => {
    const calls = stubApi({ ...lookups, [transferPath]: sent('12.5', '238') });
    const { user, router } = renderTransfer(formPath, { '/dashboard': <p>dashboard</p> });
    await fill(user, '12.5', '1234');
    await send(user);
    expect(await screen.findByText('Fund transfer successfull')).toBeTruthy();
    expect(screen.getByText('Fund transfer successfull: US$ 12.50 sent to Grace Hopper.')).toBeTruthy();
    expect(screen.getByText('Your balance now: US$ 238.00')).toBeTruthy();
    expect(screen.getByText('TX-77')).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/account/transfer_balance', { userId: signedIn.userId, debitAccountKey: 'ada', creditAccountKey: 'grace', currency: 'USD', balance: '12.50', tpin: '1234' }],
    ]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    // The form is spent: its fields are disabled (their fieldset is) and Send Money became Back to Dashboard.
    expect((screen.getByRole('group', { name: 'Transfer details' }) as HTMLFieldSetElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send Money' })).toBeNull();
    const back = screen.getByRole('button', { name: 'Back to Dashboard' });
    await waitFor(() => expect(document.activeElement).toBe(back));
    await user.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows "Incorrect TPIN" and empties the TPIN; a later success clears that error', async () => {
    let answer: { status: number; body: unknown } = wrongTpin;
    const calls = stubApi({ ...lookups, [transferPath]: () => answer });
    const { user } = renderTransfer();
    await fill(user, '20', '9999');
    await send(user);
    expect(await screen.findByText('Incorrect TPIN')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe(''));
    expect(document.activeElement).toBe(screen.getByLabelText('TPIN'));
    // The amount typed stays for the next try.
    expect((screen.getByLabelText(amountLabel) as HTMLInputElement).value).toBe('20');

    answer = sent('20', '230.5');
    await user.type(screen.getByLabelText('TPIN'), '1234');
    await send(user);
    expect(await screen.findByText('Fund transfer successfull')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Incorrect TPIN')).toBeNull(), { timeout: 3000 });
    expect(writes(calls).map((call) => (call[2] as { tpin: string }).tpin)).toEqual(['9999', '1234']);
  });

  it('puts the server’s field message under its field', async () => {
    stubApi({
      ...lookups,
      [transferPath]: { status: 400, body: { status: 'error', error: 'Invalid request', code: 'validation_failed', fields: { balance: 'Insufficient balance' } } },
    });
    const { user } = renderTransfer();
    await fill(user, '200', '1234');
    await send(user);
    await waitFor(() => expect(fieldError(amountLabel)).toBe('Insufficient balance'));
    expect(screen.getByText('Invalid request')).toBeTruthy();
  });

  it('after an answer that never came, says sending again is safe and sends the same transfer with the same key', async () => {
    let attempt = 0;
    const calls = stubApi({
      ...lookups,
      [transferPath]: () => {
        attempt += 1;
        return attempt === 1
          ? { status: 503, body: { status: 'error', error: 'Kestrel is briefly unavailable. Please try again in a moment.', code: 'database_unavailable' } }
          : sent('15', '235.5');
      },
    });
    const { user } = renderTransfer();
    await fill(user, '15', '1234');
    await send(user);
    expect(await screen.findByText('Kestrel is briefly unavailable. Please try again in a moment. Sending it again is safe: it will not be paid twice.')).toBeTruthy();
    await send(user);
    expect(await screen.findByText('Fund transfer successfull')).toBeTruthy();
    const keys = calls.filter((call: StubbedCall) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('says "Recipient account not found" for an unknown user name, and refuses the sending account as recipient', async () => {
    stubApi({
      ...lookups,
      'GET /v1/recipients/nobody': { status: 404, body: { status: 'error', error: 'Recipient account not found', code: 'recipient_not_found' } },
    });
    const first = renderTransfer('/fund-transfer/wallet/recipient/nobody');
    expect(await screen.findByRole('heading', { name: 'Recipient account not found' })).toBeTruthy();
    expect(screen.getByText('No account has the user name “nobody”.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Search recipients' }).getAttribute('href')).toBe('/fund-transfer/wallet/recipient');
    first.unmount();

    stubApi({ ...lookups, 'GET /v1/recipients/ada': success({ ...grace, _id: 'acc-1', accountNumber: signedIn.account.accountNumber, userName: 'ada' }) });
    renderTransfer('/fund-transfer/wallet/recipient/ada');
    expect(await screen.findByRole('heading', { name: 'You cannot transfer to the same account' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send Money' })).toBeNull();
  });

  it('shows "Comming Soon!" for a bank transfer and "Page Not Found" for an unknown type', async () => {
    const calls = stubApi({});
    const first = renderTransfer('/fund-transfer/bank/recipient/grace');
    expect(await screen.findByRole('heading', { name: 'Comming Soon!' })).toBeTruthy();
    first.unmount();
    renderTransfer('/fund-transfer/crypto/recipient/grace');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('above the step-up threshold: asks for the e-mailed "Verification code", refuses an empty one, shows a wrong one under the field, and resends the same transfer with the same key', async () => {
    const answers = [
      { status: 403, body: { status: 'error', error: stepUpMessages.requiredEmail, code: 'step_up_required' } },
      { status: 403, body: { status: 'error', error: stepUpMessages.invalidEmail(4), code: 'step_up_invalid', fields: { stepUpCode: stepUpMessages.invalidEmail(4) } } },
      sent('1500', '100'),
    ];
    const calls = stubApi({ ...lookups, [transferPath]: () => answers.shift()! });
    const { user } = renderTransfer();
    expect(screen.queryByLabelText(stepUpText.label)).toBeNull();
    await fill(user, '1500', '1234');
    await send(user);

    const field = await screen.findByLabelText(stepUpText.label);
    expect(screen.getByText(stepUpText.hintEmail)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Not an error: no failure toast.
    expect(screen.queryByText('Fund transfer failed!')).toBeNull();

    // Sent empty: the form says so and sends nothing.
    await send(user);
    await waitFor(() => expect(fieldError(stepUpText.label)).toBe(stepUpMessages.codeRequired));
    expect(writes(calls)).toHaveLength(1);

    await user.type(field, '000000');
    await send(user);
    await waitFor(() => expect(fieldError(stepUpText.label)).toBe(stepUpMessages.invalidEmail(4)));
    await waitFor(() => expect((screen.getByLabelText(stepUpText.label) as HTMLInputElement).value).toBe(''));

    await user.type(screen.getByLabelText(stepUpText.label), '492039');
    await send(user);
    expect(await screen.findByText('Fund transfer successfull')).toBeTruthy();

    const bodies = writes(calls).map((call) => call[2] as { stepUpCode?: string; tpin: string; balance: string });
    expect(bodies.map((body) => body.stepUpCode)).toEqual([undefined, '000000', '492039']);
    expect(bodies.every((body) => body.tpin === '1234' && body.balance === '1500.00')).toBe(true);
    const keys = calls.filter((call: StubbedCall) => call.method === 'POST').map((call) => call.headers.get('Idempotency-Key'));
    expect(new Set(keys).size).toBe(1);
  });

  it('with 2FA on, the step-up hint names the authenticator app', async () => {
    stubApi({ ...lookups, [transferPath]: { status: 403, body: { status: 'error', error: stepUpMessages.requiredApp, code: 'step_up_required' } } });
    const { user } = renderTransfer();
    await fill(user, '1500', '1234');
    await send(user);
    expect(await screen.findByLabelText(stepUpText.label)).toBeTruthy();
    expect(screen.getByText(stepUpText.hintApp)).toBeTruthy();
  });
});

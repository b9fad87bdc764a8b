import { screen, waitFor } from '@testing-library/react';
import { stepUpMessages, stepUpText } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, writes, type StubbedCall } from '../../../test/render.tsx';
import { NewWithdrawForm } from './NewWithdrawForm.tsx';
import { fieldError } from '../../../test/form.ts';

const accountAnswer = { [`GET /v1/account/${signedIn.account.accountNumber}`]: { status: 200, body: { status: 'success', data: accountFixture() } } };

async function fillUnitedStates(user: ReturnType<typeof renderPage>['user'], overrides: Record<string, string> = {}) {
  const values: Record<string, string> = {
    'Bank Name': 'First Bank',
    'Bank Account Number': '000123456789',
    'Routing Number': '021000021',
    'Account Holder Name': 'Ada Lovelace',
    Amount: '12.5',
    TPIN: '1234',
    ...overrides,
  };
  await user.selectOptions(screen.getByLabelText('Country'), 'United States');
  await user.selectOptions(await screen.findByLabelText('Account Type'), 'checking');
  for (const [label, value] of Object.entries(values)) if (value) await user.type(screen.getByLabelText(label), value);
}

const withdrawal = {
  _id: 'w1', accountNumber: 'A100', amount: 12.5, currency: 'USD', status: 'Pending', bankName: 'First Bank', country: 'United States',
  branchName: null, accountType: 'CHECKING', bankAccountNumber: '****6789', routingNumber: '021000021', accountHolderName: 'Ada Lovelace',
  failureReason: null, createdAt: '2026-11-25T12:00:00.000Z', updatedAt: '2026-11-25T12:00:00.000Z',
};

describe('the new bank withdraw form', () => {
  beforeEach(signIn);

  it('shows each field’s required message and sends nothing', async () => {
    const calls = stubApi(accountAnswer);
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new' });
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    await waitFor(() => expect(fieldError('Country')).toBe('Country is required'));
    expect(fieldError('Bank Name')).toBe('Bank Name is required');
    expect(fieldError('Bank Account Number')).toBe('Bank Account Number is required');
    expect(fieldError('Routing Number')).toBe('Routing Number is required');
    expect(fieldError('Account Holder Name')).toBe('Account Holder Name is required');
    expect(fieldError('Amount')).toBe('Amount is required');
    expect(fieldError('TPIN')).toBe('TPIN is required');
    expect(writes(calls)).toEqual([]);
  });

  it('shows the available balance, keeps the amount to digits and one point, and refuses a third decimal', async () => {
    const calls = stubApi(accountAnswer);
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new' });
    expect(await screen.findByText('Available balance: US$ 250.50')).toBeTruthy();
    await user.type(screen.getByLabelText('Amount'), '1a2.3.4$');
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('12.34');
    await user.clear(screen.getByLabelText('Amount'));
    await fillUnitedStates(user, { Amount: '1.005', 'Routing Number': '1234', TPIN: '12' });
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    await waitFor(() => expect(fieldError('Amount')).toBe('Enter an amount greater than 0 with at most two decimals'));
    expect(fieldError('Routing Number')).toBe('Routing number must be 9 digits');
    expect(fieldError('TPIN')).toBe('TPIN must be 4 digits');
    expect(writes(calls)).toEqual([]);
  });

  it('asks a Bangladesh withdrawal for the branch, not the account type', async () => {
    stubApi(accountAnswer);
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new' });
    await user.selectOptions(screen.getByLabelText('Country'), 'Bangladesh');
    expect(await screen.findByLabelText('Branch Name')).toBeTruthy();
    expect(screen.queryByLabelText('Account Type')).toBeNull();
  });

  it('sends the request once with an Idempotency-Key, the amount as exact text, and says it is pending', async () => {
    const calls = stubApi({ ...accountAnswer, 'POST /v1/bank-withdraw/create': { status: 200, body: { status: 'success', data: withdrawal } } });
    const { user, router } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new', routes: { '/withdraw/bank': <p>withdrawals</p> } });
    await fillUnitedStates(user);
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    expect(await screen.findByText('Your withdraw request is pending!')).toBeTruthy();
    expect(writes(calls)).toEqual([
      [
        'POST',
        '/v1/bank-withdraw/create',
        {
          accountNumber: 'A100', userId: signedIn.userId, tpin: '1234', country: 'United States', bankName: 'First Bank', accountType: 'CHECKING',
          bankAccountNumber: '000123456789', routingNumber: '021000021', accountHolderName: 'Ada Lovelace', currency: 'USD', amount: '12.50',
        },
      ],
    ]);
    expect(calls.find((call) => call.method === 'POST')?.headers.get('Idempotency-Key')).toMatch(/.{16,}/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/withdraw/bank'));
  });

  it('shows "Incorrect TPIN" and empties the TPIN for another try', async () => {
    stubApi({ ...accountAnswer, 'POST /v1/bank-withdraw/create': { status: 400, body: { status: 'error', error: 'Incorrect TPIN', code: 'tpin_incorrect' } } });
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new' });
    await fillUnitedStates(user);
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    expect(await screen.findByText('Incorrect TPIN')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('TPIN') as HTMLInputElement).value).toBe(''));
  });

  it('tells the user a request whose answer never came is safe to send again', async () => {
    stubApi({ ...accountAnswer, 'POST /v1/bank-withdraw/create': { status: 503, body: { status: 'error', error: 'Kestrel is briefly unavailable. Please try again in a moment.', code: 'database_unavailable' } } });
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new' });
    await fillUnitedStates(user);
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    expect(await screen.findByText('Withdraw request failed! Sending it again is safe: the money will not be held twice.')).toBeTruthy();
  });

  it('above the step-up threshold: asks for the Verification code and sends the same request again with it, under the same key', async () => {
    const answers = [
      { status: 403, body: { status: 'error', error: stepUpMessages.requiredEmail, code: 'step_up_required' } },
      { status: 200, body: { status: 'success', data: withdrawal } },
    ];
    const calls = stubApi({ ...accountAnswer, 'POST /v1/bank-withdraw/create': () => answers.shift()! });
    const { user } = renderPage(<NewWithdrawForm />, { path: '/bank/withdraw/new', routes: { '/withdraw/bank': <p>withdrawals</p> } });
    await fillUnitedStates(user, { Amount: '1500' });
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    const field = await screen.findByLabelText(stepUpText.label);
    expect(screen.getByText(stepUpText.hintEmail)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    await waitFor(() => expect(fieldError(stepUpText.label)).toBe(stepUpMessages.codeRequired));
    await user.type(field, '492039');
    await user.click(screen.getByRole('button', { name: 'Request withdraw' }));
    expect(await screen.findByText('withdrawals')).toBeTruthy();
    const posts = calls.filter((call: StubbedCall) => call.method === 'POST');
    expect(posts.map((call) => (call.body as { stepUpCode?: string }).stepUpCode)).toEqual([undefined, '492039']);
    expect(new Set(posts.map((call) => call.headers.get('Idempotency-Key'))).size).toBe(1);
  });
});

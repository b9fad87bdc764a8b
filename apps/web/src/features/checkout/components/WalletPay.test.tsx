import { screen } from '@testing-library/react';
import { twoFactorMessages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { renderPage, stubApi, success, writes } from '../../../test/render.tsx';
import { WalletPay } from './WalletPay.tsx';

/** The pay pages' wallet login for a payer with two-factor sign-in on (issue 25). */
describe('wallet pay: the login with two-factor sign-in on', () => {
  const challenge = { secondStep: 'totp', challengeToken: 'c'.repeat(43), expiresAt: '2026-11-25T09:17:00.000Z' };
  const wallet = { _id: 'acc-1', accountNumber: 'A100', accountType: 'personal', accountHolderName: 'Ada Payer', businessName: null, balance: [{ currency: 'USD', amount: 50 }] };

  it('asks for the code after the password, shows a wrong code under the field, then lists the wallets', async () => {
    let tries = 0;
    const calls = stubApi({
      'POST /v1/auth/login': success(challenge),
      'POST /v1/auth/login/second-step': () => {
        tries += 1;
        return tries === 1
          ? { status: 401, body: { status: 'error', error: twoFactorMessages.codeInvalid, code: 'second_factor_invalid' } }
          : success({ _id: 'payer-1', token: 'payer-token', accounts: ['acc-1'] });
      },
      'GET /v1/user/payer-1': success({
        _id: 'payer-1',
        firstName: 'Ada',
        lastName: 'Payer',
        email: 'ada@example.test',
        contactNumber: '+15550100001',
        isEmailVerified: true,
        isAccountHolder: true,
        isOperator: false,
        createdAt: '2026-11-01T09:00:00.000Z',
        accounts: [{ _id: 'acc-1', accountNumber: 'A100', accountType: 'personal', accountHolderName: 'Ada Payer', businessName: null, userName: 'ada', accountEmail: 'ada@example.test' }],
      }),
      'GET /v1/account/A100': success(wallet),
    });
    const { user } = renderPage(<WalletPay amountCents={1000} currency="USD" payLabel="Pay" busy={false} onPay={() => undefined} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const code = await screen.findByLabelText('Authentication code');
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(twoFactorMessages.codeInvalid)).toBeTruthy();
    await user.clear(code);
    await user.type(code, '222222');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('wallet-user')).textContent).toBe('ada@example.test');
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/login', { email: 'ada@example.test', password: 'secret-pass' }],
      ['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, code: '111111' }],
      ['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, code: '222222' }],
    ]);
  });
});

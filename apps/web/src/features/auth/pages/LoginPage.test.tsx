import { screen, waitFor } from '@testing-library/react';
import { passkeySignInText, twoFactorMessages } from '@kestrel/shared';
import { describe, expect, it, vi } from 'vitest';
import { renderPage, stubApi, success, writes } from '../../../test/render.tsx';
import type * as PasskeysModule from '../../../lib/passkeys.ts';
import { LoginPage } from './LoginPage.tsx';

// The browser's passkey prompt (navigator.credentials) is not in happy-dom: the person's answer is this one.
const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} };
const browserPasskey = vi.hoisted(() => ({ cancelled: false }));
vi.mock('../../../lib/passkeys.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof PasskeysModule>()),
  passkeyAssertion: vi.fn(async () => {
    if (browserPasskey.cancelled) throw Object.assign(new Error('cancelled'), { name: 'NotAllowedError' });
    return assertion;
  }),
}));

const fill = async (user: ReturnType<typeof renderPage>['user'], email: string, password: string) => {
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
};

describe('the login form', () => {
  it('shows the spec’s required messages under empty fields and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await fill(user, '', '');
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });

  it('treats an email of spaces as empty', async () => {
    stubApi({});
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await fill(user, '   ', 'secret-pass');
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.queryByText('Password is required')).toBeNull();
  });

  it('answers wrong credentials with "Invalid email or password!" and stays on the page', async () => {
    const calls = stubApi({
      'POST /v1/auth/login': { status: 401, body: { status: 'error', error: 'Invalid email or password!', code: 'invalid_credentials' } },
    });
    const { user, router } = renderPage(<LoginPage />, { path: '/login' });
    await fill(user, '  ada@example.test ', 'wrong-pass');
    expect(await screen.findByText('Invalid email or password!')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/auth/login', { email: 'ada@example.test', password: 'wrong-pass' }]]);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the server’s own text for a refusal it explains (the rate limit)', async () => {
    stubApi({
      'POST /v1/auth/login': {
        status: 429,
        body: { status: 'error', error: 'Too many login attempts. Please wait a few minutes and try again.', code: 'rate_limited' },
      },
    });
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await fill(user, 'ada@example.test', 'secret-pass');
    expect(await screen.findByText('Too many login attempts. Please wait a few minutes and try again.')).toBeTruthy();
  });

  it('answers "Login failed!" when the server cannot be reached', async () => {
    stubApi({
      'POST /v1/auth/login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { user } = renderPage(<LoginPage />, { path: '/login' });
    await fill(user, 'ada@example.test', 'secret-pass');
    expect(await screen.findByText('Login failed!')).toBeTruthy();
  });

  it('signs in: "Login successful" and on to the dashboard', async () => {
    stubApi({
      'POST /v1/auth/login': { status: 200, body: { status: 'success', data: { _id: 'u1', token: 'tok', accounts: [] } } },
    });
    const { user, router } = renderPage(<LoginPage />, { path: '/login', routes: { '/dashboard': <p>dashboard</p> } });
    await fill(user, 'ada@example.test', 'secret-pass');
    expect(await screen.findByText('Login successful')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  describe('with two-factor sign-in on', () => {
    const challenge = { secondStep: 'totp', challengeToken: 'c'.repeat(43), expiresAt: '2026-11-25T09:17:00.000Z' };
    const refusal = (status: number, error: string, code: string) => ({ status, body: { status: 'error', error, code } });

    it('asks for the 6-digit code after the password, checks it under the field, shows a wrong code under it, then signs in', async () => {
      let tries = 0;
      const calls = stubApi({
        'POST /v1/auth/login': success(challenge),
        'POST /v1/auth/login/second-step': () => {
          tries += 1;
          return tries === 1 ? refusal(401, twoFactorMessages.codeInvalid, 'second_factor_invalid') : success({ _id: 'u1', token: 'tok', accounts: [] });
        },
      });
      const { user, router } = renderPage(<LoginPage />, { path: '/login', routes: { '/dashboard': <p>dashboard</p> } });
      await fill(user, 'ada@example.test', 'secret-pass');
      const code = await screen.findByLabelText('Authentication code');
      expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
      expect(document.activeElement).toBe(code);

      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText(twoFactorMessages.codeRequired)).toBeTruthy();
      await user.type(code, '12345');
      expect(await screen.findByText(twoFactorMessages.codeFormat)).toBeTruthy();
      expect(writes(calls)).toHaveLength(1);

      await user.type(code, '6');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText(twoFactorMessages.codeInvalid)).toBeTruthy();
      expect(code.getAttribute('aria-invalid')).toBe('true');
      expect(router.state.location.pathname).toBe('/login');

      await user.clear(code);
      await user.type(code, '654321{Enter}');
      expect((await screen.findAllByText('Login successful')).length).toBeGreaterThan(0);
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(writes(calls)).toEqual([
        ['POST', '/v1/auth/login', { email: 'ada@example.test', password: 'secret-pass' }],
        ['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, code: '123456' }],
        ['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, code: '654321' }],
      ]);
    });

    it('takes a recovery code instead, and goes back to the password when the sign-in has expired', async () => {
      const calls = stubApi({
        'POST /v1/auth/login': success(challenge),
        'POST /v1/auth/login/second-step': refusal(401, twoFactorMessages.challengeInvalid, 'login_challenge_invalid'),
      });
      const { user } = renderPage(<LoginPage />, { path: '/login' });
      await fill(user, 'ada@example.test', 'secret-pass');
      await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
      const recovery = screen.getByLabelText('Recovery code');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText(twoFactorMessages.recoveryCodeRequired, { selector: 'p[id]' })).toBeTruthy();
      await user.type(recovery, ' k7m2q-x4r9t ');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText(twoFactorMessages.challengeInvalid)).toBeTruthy();
      expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
      expect(screen.getByLabelText('Password')).toBeTruthy();
      expect(writes(calls).at(-1)).toEqual(['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, code: 'k7m2q-x4r9t' }]);
    });
  });

  describe('passkeys', () => {
    const options = { challenge: 'xJ3kq0mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI', rpId: 'localhost', userVerification: 'required' };

    it('signs in with a passkey without the password; a cancelled prompt says so and stays', async () => {
      const calls = stubApi({
        'POST /v1/auth/login/passkey/options': success(options),
        'POST /v1/auth/login/passkey': success({ _id: 'u1', token: 'tok', accounts: [] }),
      });
      const { user, router } = renderPage(<LoginPage />, { path: '/login', routes: { '/dashboard': <p>dashboard</p> } });
      browserPasskey.cancelled = true;
      await user.click(screen.getByRole('button', { name: passkeySignInText.signIn }));
      expect(await screen.findByText(passkeySignInText.cancelled)).toBeTruthy();
      expect(writes(calls)).toEqual([['POST', '/v1/auth/login/passkey/options', undefined]]);

      browserPasskey.cancelled = false;
      await user.click(screen.getByRole('button', { name: passkeySignInText.signIn }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(writes(calls).at(-1)).toEqual(['POST', '/v1/auth/login/passkey', { credential: assertion }]);
    });

    it('asks for the passkey after the password when it is the only second factor, and signs in with it', async () => {
      const challenge = { secondStep: 'passkey', challengeToken: 'q0H3mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s', expiresAt: '2026-11-25T09:17:00.000Z', passkey: options };
      const calls = stubApi({
        'POST /v1/auth/login': success(challenge),
        'POST /v1/auth/login/second-step': success({ _id: 'u1', token: 'tok', accounts: [] }),
      });
      const { user, router } = renderPage(<LoginPage />, { path: '/login', routes: { '/dashboard': <p>dashboard</p> } });
      await fill(user, 'ada@example.test', 'secret-pass');
      expect(await screen.findByText(passkeySignInText.secondStepHint)).toBeTruthy();
      expect(screen.queryByLabelText('Authentication code')).toBeNull();
      await user.click(screen.getByRole('button', { name: passkeySignInText.useInSecondStep }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(writes(calls).at(-1)).toEqual(['POST', '/v1/auth/login/second-step', { challengeToken: challenge.challengeToken, passkey: assertion }]);
    });
  });
});

import { screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSession } from '../../../lib/session.ts';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';

const resetPath = 'POST /v1/auth/reset-password';
const token = 'rst_0123456789abcdef';
const path = `/reset-password?token=${token}`;
const linkInvalid = 'This password reset link is invalid, has already been used or has expired. Please ask for a new one.';

type User = ReturnType<typeof renderPage>['user'];

function fieldError(label: string): string | null {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

async function submit(user: User, password: string, confirmPassword: string) {
  for (const [label, value] of [['New password', password], ['Confirm password', confirmPassword]] as const) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

const renderReset = (at = path) => renderPage(<ResetPasswordPage />, { path: at, pattern: '/reset-password', routes: { '/login': <p>login page</p> } });

describe('the reset password page', () => {
  beforeEach(() => {
    toast.remove();
  });

  it('shows the sign-up’s required messages and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderReset();
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    await submit(user, '', '');
    await waitFor(() => expect(fieldError('New password')).toBe('New password is required'));
    expect(fieldError('Confirm password')).toBe('Confrim password is required');
    expect(writes(calls)).toEqual([]);
  });

  it('wants at least 8 characters and the same password twice', async () => {
    const calls = stubApi({});
    const { user } = renderReset();
    await submit(user, 'short12', 'short12');
    await waitFor(() => expect(fieldError('New password')).toBe('Password must be at least 8 characters'));
    await submit(user, 'long-enough', 'long-enougH');
    await waitFor(() => expect(fieldError('Confirm password')).toBe("Password don't match"));
    expect(fieldError('New password')).toBeNull();
    // Exactly 8 is enough.
    await submit(user, '12345678', '1234567');
    await waitFor(() => expect(fieldError('Confirm password')).toBe("Password don't match"));
    expect(fieldError('New password')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('sends the token with the new password, ends this browser’s session and goes to login with the server’s words', async () => {
    signIn();
    const calls = stubApi({ [resetPath]: success(null, 'Your password was changed. Please log in with the new password.') });
    const { user, router } = renderReset();
    await submit(user, 'brand-new-pass', 'brand-new-pass');
    expect(await screen.findByText('Your password was changed. Please log in with the new password.')).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/auth/reset-password', { token, password: 'brand-new-pass', confirmPassword: 'brand-new-pass' }]]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getSession().accessToken).toBeUndefined();
    expect(getSession().userId).toBeUndefined();
  });

  it('says a spent or unknown link is invalid where the form was, once, with the way to a new one', async () => {
    stubApi({ [resetPath]: { status: 400, body: { status: 'error', error: linkInvalid, code: 'password_reset_link_invalid' } } });
    const { user } = renderReset();
    await submit(user, 'brand-new-pass', 'brand-new-pass');
    expect((await screen.findByRole('alert')).textContent).toBe(linkInvalid);
    // No toast repeats it.
    expect(screen.getAllByText(linkInvalid)).toHaveLength(1);
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('says the same for an address without a token, without asking for a password', async () => {
    const calls = stubApi({});
    renderReset('/reset-password');
    expect(screen.getByRole('alert').textContent).toBe(linkInvalid);
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('puts the server’s password message under the field, with "Password reset failed! try again" for an answer without words', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: { status: 'error', error: 'Invalid request', code: 'validation_failed', fields: { password: 'Password must be at most 128 characters' } },
    };
    stubApi({ [resetPath]: () => answer });
    const { user } = renderReset();
    await submit(user, 'brand-new-pass', 'brand-new-pass');
    await waitFor(() => expect(fieldError('New password')).toBe('Password must be at most 128 characters'));
    answer = { status: 502, body: {} };
    await submit(user, 'brand-new-pass', 'brand-new-pass');
    expect(await screen.findByText('Password reset failed! try again')).toBeTruthy();
  });
});

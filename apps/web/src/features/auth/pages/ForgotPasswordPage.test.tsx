import { screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, stubApi, success, writes } from '../../../test/render.tsx';
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx';

const forgotPath = 'POST /v1/auth/forgot-password';
const requested = 'If an account uses this e-mail, we have sent it a link to reset the password. The link works once, for 30 minutes.';

function fieldError(label: string): string | null {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

async function ask(user: ReturnType<typeof renderPage>['user'], email: string) {
  if (email) await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('the forgot password page', () => {
  beforeEach(() => {
    toast.remove();
  });

  it('wants an email address: "Email is required", "Invalid email address", and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    expect(screen.getByRole('heading', { name: 'Forgot password' })).toBeTruthy();
    await ask(user, '');
    await waitFor(() => expect(fieldError('Email')).toBe('Email is required'));
    await ask(user, 'ada@');
    await waitFor(() => expect(fieldError('Email')).toBe('Invalid email address'));
    expect(writes(calls)).toEqual([]);
  });

  it('gives the same answer whether or not the address has an account', async () => {
    // The server answers alike for both; the page must not tell them apart either.
    const calls = stubApi({ [forgotPath]: success(null, requested) });
    const shown: string[] = [];
    for (const email of ['ada@example.test', 'nobody@example.test']) {
      const { user, unmount } = renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
      await ask(user, email);
      // The form gives way to the answer.
      await waitFor(() => expect(screen.queryByLabelText('Email')).toBeNull());
      shown.push(screen.getByRole('status').textContent ?? '');
      expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
      unmount();
    }
    expect(shown).toEqual([requested, requested]);
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/forgot-password', { email: 'ada@example.test' }],
      ['POST', '/v1/auth/forgot-password', { email: 'nobody@example.test' }],
    ]);
  });

  it('sends the address trimmed and in lower case, and shows the one sentence when the answer carries none', async () => {
    const calls = stubApi({ [forgotPath]: success(null) });
    const { user } = renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    await ask(user, '  Ada@Example.TEST ');
    expect(await screen.findByText(requested)).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/auth/forgot-password', { email: 'ada@example.test' }]]);
  });

  it('says so when too many links were asked for, and keeps the form', async () => {
    stubApi({
      [forgotPath]: { status: 429, body: { status: 'error', error: 'Too many password reset requests. Please wait a few minutes and try again.', code: 'rate_limited' } },
    });
    const { user } = renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    await ask(user, 'ada@example.test');
    expect(await screen.findByText('Too many password reset requests. Please wait a few minutes and try again.')).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });
});

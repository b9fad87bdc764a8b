import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, stubApi, writes } from '../../../test/render.tsx';
import { LoginPage } from './LoginPage.tsx';

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
});

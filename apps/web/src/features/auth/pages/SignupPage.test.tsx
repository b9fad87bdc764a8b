import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, stubApi, writes } from '../../../test/render.tsx';
import { SignupPage } from './SignupPage.tsx';

interface Values {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  password?: string;
  confirmPassword?: string;
}
const complete: Required<Values> = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  phone: '+15550001111',
  password: 'long-enough',
  confirmPassword: 'long-enough',
};
const labels: Record<keyof Values, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  password: 'Password',
  confirmPassword: 'Confirm password',
};

async function submit(user: ReturnType<typeof renderPage>['user'], values: Values) {
  for (const [field, value] of Object.entries(values) as [keyof Values, string][]) {
    if (value) await user.type(screen.getByLabelText(labels[field]), value);
  }
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

/** The message shown under a field (the input names it with aria-describedby). */
function fieldError(label: string): string | null {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('the sign-up form', () => {
  it('shows the spec’s required message under every empty field and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<SignupPage />, { path: '/signup' });
    await submit(user, {});
    await waitFor(() => expect(fieldError('First name')).toBe('First name is required'));
    expect(fieldError('Last name')).toBe('Last name is required');
    expect(fieldError('Email')).toBe('Email is required');
    expect(fieldError('Phone')).toBe('Phone is required');
    expect(fieldError('Password')).toBe('New password is required');
    expect(fieldError('Confirm password')).toBe('Confrim password is required');
    expect(writes(calls)).toEqual([]);
  });

  it('refuses a malformed email and phone, a short password and a confirmation that differs', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<SignupPage />, { path: '/signup' });
    await submit(user, { ...complete, email: 'ada@', phone: '12ab', password: 'short12', confirmPassword: 'short13' });
    await waitFor(() => expect(fieldError('Email')).toBe('Invalid email address'));
    expect(fieldError('Phone')).toBe('Invalid phone number');
    expect(fieldError('Password')).toBe('Password must be at least 8 characters');
    expect(fieldError('Confirm password')).toBe("Password don't match");
    expect(writes(calls)).toEqual([]);
  });

  it('puts "email already used" under the email and in a toast', async () => {
    stubApi({
      'POST /v1/user/register': {
        status: 409,
        body: { status: 'error', error: 'The email is already used! you can login or try another email', code: 'email_taken' },
      },
    });
    const { user } = renderPage(<SignupPage />, { path: '/signup' });
    await submit(user, complete);
    await waitFor(() => expect(fieldError('Email')).toBe('The email is already used! you can login or try another email'));
    expect(within(screen.getByRole('status')).getByText('The email is already used! you can login or try another email')).toBeTruthy();
  });

  it('sends the phone as contactNumber and greets the new user', async () => {
    const calls = stubApi({
      'POST /v1/user/register': {
        status: 201,
        body: { status: 'success', message: 'Registration successful! Please check your email to verify your account.', data: { _id: 'u1', token: 'tok' } },
      },
    });
    const { user, router } = renderPage(<SignupPage />, { path: '/signup', routes: { '/dashboard': <p>dashboard</p> } });
    await submit(user, complete);
    expect(await screen.findByText('Registration successful! Please check your email to verify your account.')).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/user/register', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', contactNumber: '+15550001111', password: 'long-enough' }],
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

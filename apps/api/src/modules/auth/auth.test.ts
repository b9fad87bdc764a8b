import { messages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';
import { hashToken } from '../../security/tokens.ts';

describe('POST /v1/auth/login', () => {
  it('answers the spec shape: data {_id, token, accounts}', async () => {
    const user = await createUser();
    const response = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    expect(response.body.data).toEqual({ _id: user.userId, token: expect.any(String), accounts: [] });
  });

  it('matches the e-mail case-insensitively', async () => {
    const user = await createUser();
    const response = await api('POST', '/v1/auth/login', { body: { email: user.email.toUpperCase(), password: user.password } });
    expect(response.status).toBe(200);
  });

  it('gives the same status and body for an unknown e-mail and a wrong password', async () => {
    const user = await createUser();
    const wrongPassword = await api('POST', '/v1/auth/login', { body: { email: user.email, password: 'not the password' } });
    const unknownEmail = await api('POST', '/v1/auth/login', { body: { email: `nobody-${user.email}`, password: user.password } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ status: 'error', error: messages.login.invalid, code: 'invalid_credentials' });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(messages.login.invalid).toBe('Invalid email or password!');
  });

  it('requires e-mail and password with the form messages', async () => {
    const response = await api('POST', '/v1/auth/login', { body: { email: '', password: '' } });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({ email: 'Email is required', password: 'Password is required' });
    const missing = await api('POST', '/v1/auth/login', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ email: 'Email is required', password: 'Password is required' });
  });

  it('slows an e-mail down after 10 failed attempts: 429 with Retry-After and a clear message, the right password included', async () => {
    const user = await createUser();
    for (let i = 0; i < 11; i++) {
      const attempt = await api('POST', '/v1/auth/login', { body: { email: user.email, password: `wrong-${i}` } });
      expect(attempt.status).toBe(401);
    }
    // Issue 19: past the free failures each one doubles the wait (1 s, 2 s, 4 s…); guess on until it is 4 s or more.
    let wait = 0;
    for (let i = 0; i < 20 && wait < 4; i++) {
      const attempt = await api('POST', '/v1/auth/login', { body: { email: user.email, password: `more-${i}` } });
      expect([401, 429]).toContain(attempt.status);
      if (attempt.status === 429) wait = Number(attempt.headers.get('retry-after'));
      if (attempt.status === 429 && wait < 4) await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
    expect(wait).toBeGreaterThanOrEqual(4);
    const blocked = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ status: 'error', error: messages.login.rateLimited, code: 'login_rate_limited' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('stores only a hash of the token, with a 7-day expiry', async () => {
    const user = await createUser();
    const { db } = await testServer();
    const login = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    const token: string = login.body.data.token;
    expect(token.length).toBeGreaterThanOrEqual(43);
    const session = await db.selectFrom('sessions').selectAll().where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(session.userId).toBe(user.userId);
    const days = (new Date(session.expiresAt).getTime() - new Date(session.createdAt).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    const raw = await db.selectFrom('sessions').select('tokenHash').where('userId', '=', user.userId).execute();
    expect(raw.map((row) => row.tokenHash)).not.toContain(token);
  });
});

describe('authentication on signed-in routes', () => {
  it('accepts the raw token and the Bearer form', async () => {
    const user = await createUser();
    expect((await api('GET', `/v1/user/${user.userId}`, { token: user.token })).status).toBe(200);
    expect((await api('GET', `/v1/user/${user.userId}`, { token: `Bearer ${user.token}` })).status).toBe(200);
  });

  it('refuses a missing or unknown token with 401', async () => {
    const user = await createUser();
    const missing = await api('GET', `/v1/user/${user.userId}`);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: 'error', code: 'unauthorized' });
    const unknown = await api('GET', `/v1/user/${user.userId}`, { token: 'not-a-real-token' });
    expect(unknown.status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const user = await createUser();
    const { db } = await testServer();
    await db.updateTable('sessions').set({ expiresAt: new Date(Date.now() - 1000) }).where('tokenHash', '=', hashToken(user.token)).execute();
    const response = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('session_expired');
  });
});

describe('POST /v1/auth/logout', () => {
  it('revokes the token on the server', async () => {
    const user = await createUser();
    const logout = await api('POST', '/v1/auth/logout', { token: user.token });
    expect(logout.status).toBe(200);
    const after = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(after.status).toBe(401);
    const again = await api('POST', '/v1/auth/logout', { token: user.token });
    expect(again.status).toBe(401);
  });
});

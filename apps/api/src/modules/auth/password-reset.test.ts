import { randomInt } from 'node:crypto';
import { messages } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, latestMailTo, unique } from '../../../test/factories.ts';
import { extraTestApp, api, testServer } from '../../../test/harness.ts';
import { RESET_THROTTLE } from './login-throttle.ts';

/** Asks for a reset link and answers the token in the mailed link. */
async function mailedToken(email: string): Promise<string> {
  const asked = await api('POST', '/v1/auth/forgot-password', { body: { email } });
  expect(asked.status).toBe(200);
  const mail = await latestMailTo(email);
  expect(mail?.subject).toBe('Reset your Kestrel password');
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
  if (!match?.[1]) throw new Error(`no reset link in ${mail?.textBody}`);
  return decodeURIComponent(match[1]);
}

const reset = (token: string, password: string, confirmPassword = password) =>
  api('POST', '/v1/auth/reset-password', { body: { token, password, confirmPassword } });

describe('issue 25: forgotten password', () => {
  it('answers the same for an address with and without an account, and mails only the real one', async () => {
    const user = await createUser();
    const stranger = `${unique('nobody')}@example.test`;
    const known = await api('POST', '/v1/auth/forgot-password', { body: { email: user.email.toUpperCase() } });
    const unknown = await api('POST', '/v1/auth/forgot-password', { body: { email: stranger } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ status: 'success', message: messages.passwordReset.requested, data: null });
    expect(await latestMailTo(stranger)).toBeUndefined();
    const mail = await latestMailTo(user.email);
    expect(mail?.textBody).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mail?.textBody).toContain('expires in 30 minutes');
    // Only the digest is stored: the mailed token is nowhere in the table.
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
    const { db } = await testServer();
    const rows = await db.selectFrom('passwordResetTokens').select('tokenHash').where('userId', '=', user.userId).execute();
    expect(rows.length).toBe(1);
    expect(rows[0]?.tokenHash).not.toContain(token);
  });

  it('sets the new password, ends every session and mails "password changed"', async () => {
    const user = await createUser();
    const second = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(second.status).toBe(200);
    const before = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(before.status).toBe(200);

    const done = await reset(await mailedToken(user.email), 'a-brand-new-secret');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'success', message: messages.passwordReset.done, data: null });

    for (const token of [user.token, second.body.data.token as string]) {
      expect((await api('GET', `/v1/user/${user.userId}`, { token })).status).toBe(401);
    }
    const oldPassword = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(oldPassword.status).toBe(401);
    expect(oldPassword.body.error).toBe(messages.login.invalid);
    const newPassword = await api('POST', '/v1/auth/login', { body: { email: user.email, password: 'a-brand-new-secret' } });
    expect(newPassword.status).toBe(200);
    const mail = await latestMailTo(user.email);
    expect(mail?.subject).toBe('Your Kestrel password was changed');
    expect(mail?.textBody).toContain('every device that was signed in has been signed out');
    expect(mail?.textBody).toContain('Your authenticator app and passkeys were left as they were: review them in My Account → Security');
  });

  it('refuses a link used once already, and the account\'s older links with it', async () => {
    const user = await createUser();
    const older = await mailedToken(user.email);
    const token = await mailedToken(user.email);
    expect((await reset(token, 'first-new-password')).status).toBe(200);
    for (const spent of [token, older]) {
      const again = await reset(spent, 'second-new-password');
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: messages.passwordReset.linkInvalid, code: 'password_reset_link_invalid' });
    }
    expect((await api('POST', '/v1/auth/login', { body: { email: user.email, password: 'first-new-password' } })).status).toBe(200);
  });

  it('refuses an expired link and leaves the password as it was', async () => {
    const user = await createUser();
    const token = await mailedToken(user.email);
    const { db } = await testServer();
    // 30 minutes and one second later.
    await db.updateTable('passwordResetTokens').set({ expiresAt: new Date(Date.now() - 1_000) }).where('userId', '=', user.userId).execute();
    const late = await reset(token, 'too-late-password');
    expect(late.status).toBe(400);
    expect(late.body.error).toBe(messages.passwordReset.linkInvalid);
    expect((await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await api('GET', `/v1/user/${user.userId}`, { token: user.token })).status).toBe(200);
  });

  it('refuses a token nobody was sent', async () => {
    const unknown = await reset('A'.repeat(43), 'whatever-password');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(messages.passwordReset.linkInvalid);
  });

  it('refuses a weak or mismatched password with the sign-up\'s messages, and keeps the link usable', async () => {
    const user = await createUser();
    const token = await mailedToken(user.email);
    const short = await reset(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual({ password: messages.signup.passwordTooShort });
    const empty = await reset(token, '', '');
    expect(empty.body.fields).toEqual({ password: messages.signup.passwordRequired, confirmPassword: messages.signup.confirmRequired });
    const mismatch = await reset(token, 'long-enough-one', 'long-enough-two');
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields).toEqual({ confirmPassword: messages.signup.passwordMismatch });
    expect((await reset(token, 'long-enough-one')).status).toBe(200);
  });

  it('limits the mails per e-mail: after three, the next waits a minute (429 with Retry-After)', async () => {
    const user = await createUser();
    const answers = [];
    for (let i = 0; i < RESET_THROTTLE.perEmail.free + 2; i += 1) answers.push(await api('POST', '/v1/auth/forgot-password', { body: { email: user.email } }));
    expect(answers.slice(0, RESET_THROTTLE.perEmail.free + 1).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const refused = answers.at(-1);
    expect(refused?.status).toBe(429);
    expect(refused?.body).toMatchObject({ error: messages.passwordReset.rateLimited, code: 'password_reset_rate_limited' });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(50);
    const { db } = await testServer();
    const links = await db.selectFrom('passwordResetTokens').select('id').where('userId', '=', user.userId).execute();
    expect(links.length).toBe(RESET_THROTTLE.perEmail.free + 1);
    // An address without an account meets the same limit, so the 429 reveals nothing either.
    const stranger = `${unique('nobody')}@example.test`;
    const strangerAnswers = [];
    for (let i = 0; i < RESET_THROTTLE.perEmail.free + 2; i += 1) strangerAnswers.push((await api('POST', '/v1/auth/forgot-password', { body: { email: stranger } })).status);
    expect(strangerAnswers).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('issue 25: the reset routes are limited per address', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  async function limitedApp(): Promise<string> {
    const { app, baseUrl } = await extraTestApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    apps.push(app);
    return baseUrl;
  }

  it('one address asking for many e-mails, or trying many links, is slowed after 20', { timeout: 60_000 }, async () => {
    const base = await limitedApp();
    const from = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    const post = (route: string, body: unknown, ip = from) =>
      fetch(`${base}/v1/auth/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
    const statuses = [];
    for (let i = 0; i < RESET_THROTTLE.perIp.free + 1; i += 1) statuses.push((await post('forgot-password', { email: `${unique('many')}@example.test` })).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await post('forgot-password', { email: `${unique('many')}@example.test` });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(messages.passwordReset.rateLimited);
    // Another address is not slowed by this one.
    expect((await post('forgot-password', { email: `${unique('other')}@example.test` }, '10.250.250.250')).status).toBe(200);

    const guesses = [];
    for (let i = 0; i < RESET_THROTTLE.perIp.free + 2; i += 1) guesses.push((await post('reset-password', { token: `guess${i}`.padEnd(43, 'x'), password: 'guessing-password', confirmPassword: 'guessing-password' })).status);
    expect(guesses.slice(0, RESET_THROTTLE.perIp.free + 1).every((status) => status === 400)).toBe(true);
    expect(guesses.at(-1)).toBe(429);
  });
});

import { messages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createUser, latestMailTo, registerBodyFor } from '../../../test/factories.ts';

function linkToken(text: string): string {
  const match = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no verification link in: ${text}`);
  return match[1];
}

describe('POST /v1/user/register', () => {
  it('creates an unverified user, signs them in and mails a verification link', async () => {
    const body = registerBodyFor();
    const response = await api('POST', '/v1/user/register', { body });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'success', data: { _id: expect.any(String), token: expect.any(String) } });

    const profile = await api('GET', `/v1/user/${response.body.data._id}`, { token: response.body.data.token });
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({
      email: body.email.toLowerCase(),
      firstName: body.firstName,
      isEmailVerified: false,
      isAccountHolder: false,
      accounts: [],
    });
    const mail = await latestMailTo(body.email.toLowerCase());
    expect(mail?.subject).toBe('Verify your Kestrel e-mail address');
    expect(mail?.textBody).toContain('/verify-email?token=');
  });

  it('hashes the password with argon2id', async () => {
    const body = registerBodyFor();
    const response = await api('POST', '/v1/user/register', { body });
    const { db } = await testServer();
    const user = await db.selectFrom('users').select('passwordHash').where('id', '=', response.body.data._id).executeTakeFirstOrThrow();
    expect(user.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(user.passwordHash).not.toContain(body.password);
  });

  it('refuses a used e-mail (any case) and a used phone number with the spec messages', async () => {
    const first = registerBodyFor();
    expect((await api('POST', '/v1/user/register', { body: first })).status).toBe(201);

    const sameEmail = await api('POST', '/v1/user/register', { body: registerBodyFor({ email: first.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error).toBe('The email is already used! you can login or try another email');

    const samePhone = await api('POST', '/v1/user/register', { body: registerBodyFor({ contactNumber: first.contactNumber }) });
    expect(samePhone.status).toBe(409);
    expect(samePhone.body.error).toBe('The phone number is already used!');
  });

  it('validates every field with the sign-up messages', async () => {
    const empty = await api('POST', '/v1/user/register', { body: { firstName: '', lastName: '', email: '', contactNumber: '', password: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      contactNumber: messages.signup.phoneRequired,
      password: 'New password is required',
    });
    const short = await api('POST', '/v1/user/register', { body: registerBodyFor({ password: 'short' }) });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual({ password: 'Password must be at least 8 characters' });
    const badEmail = await api('POST', '/v1/user/register', { body: registerBodyFor({ email: 'not-an-email' }) });
    expect(badEmail.body.fields).toEqual({ email: messages.signup.emailInvalid });
  });

  it('refuses unknown fields rather than ignoring them', async () => {
    const response = await api('POST', '/v1/user/register', { body: { ...registerBodyFor(), isOperator: true } });
    expect(response.status).toBe(400);
  });
});

describe('e-mail verification', () => {
  it('verifies with the mailed link once; the link cannot be reused', async () => {
    const user = await createUser({ verified: false });
    const mail = await latestMailTo(user.email);
    const token = linkToken(mail!.textBody);
    const verify = await api('POST', '/v1/user/verify-email', { body: { token } });
    expect(verify.status).toBe(200);
    expect(verify.body.message).toBe(messages.verification.verified);
    const profile = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(profile.body.data.isEmailVerified).toBe(true);
    const reuse = await api('POST', '/v1/user/verify-email', { body: { token } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe(messages.verification.linkInvalid);
  });

  it('refuses an expired link', async () => {
    const user = await createUser({ verified: false });
    const { db } = await testServer();
    await db.updateTable('emailVerificationTokens').set({ expiresAt: new Date(Date.now() - 1000) }).where('userId', '=', user.userId).execute();
    const token = linkToken((await latestMailTo(user.email))!.textBody);
    const verify = await api('POST', '/v1/user/verify-email', { body: { token } });
    expect(verify.status).toBe(400);
    const profile = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(profile.body.data.isEmailVerified).toBe(false);
  });

  it('resends a new link: "Verification mail sent"', async () => {
    const user = await createUser({ verified: false });
    const before = await latestMailTo(user.email);
    const response = await api('POST', '/v1/user/send-verification-code', { token: user.token, body: { email: user.email } });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Verification mail sent');
    const after = await latestMailTo(user.email);
    expect(linkToken(after!.textBody)).not.toBe(linkToken(before!.textBody));
  });

  it('will not mail someone else\'s address, nor a verified user', async () => {
    const user = await createUser({ verified: false });
    const other = await createUser({ verified: false });
    const response = await api('POST', '/v1/user/send-verification-code', { token: user.token, body: { email: other.email } });
    expect(response.status).toBe(404);
    const verified = await createUser();
    const again = await api('POST', '/v1/user/send-verification-code', { token: verified.token, body: { email: verified.email } });
    expect(again.status).toBe(409);
  });
});

describe('GET /v1/user/:userId', () => {
  it('answers only the caller themself; anyone else gets 404', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const response = await api('GET', `/v1/user/${alice.userId}`, { token: bob.token });
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toContain(alice.email);
  });
});

import { messages, passkeyMessages, twoFactorMessages } from '@kestrel/shared';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUser, latestMailTo, type TestUser } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { SoftAuthenticator } from '../../../test/soft-authenticator.ts';

/*
 * Passkeys (issue 25): adding one on My Account → Security, signing in with it without the
 * password, and as the second step after it. The authenticator is test/soft-authenticator.ts
 * (a P-256 key in software), so the server's own checks run on real signatures.
 */

const m = passkeyMessages;

afterEach(() => {
  vi.useRealTimers();
});

async function authenticatorFor(): Promise<SoftAuthenticator> {
  const { baseUrl } = await testServer();
  return new SoftAuthenticator(baseUrl);
}

async function registrationOptions(user: TestUser) {
  const options = await api('POST', '/v1/auth/passkeys/options', { token: user.token, body: { password: user.password } });
  expect(options.status).toBe(200);
  return options.body.data as { challenge: string; user: { id: string; name: string }; rp: { id: string }; excludeCredentials: { id: string }[] };
}

/** A user with one passkey (signed in once with the password first, so a later sign-in elsewhere is a new device). */
async function userWithPasskey(name = 'My laptop'): Promise<TestUser & { authenticator: SoftAuthenticator }> {
  const user = await createUser();
  expect((await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  const authenticator = await authenticatorFor();
  const added = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name, credential: authenticator.attest(await registrationOptions(user)) } });
  expect(added.status).toBe(200);
  return { ...user, authenticator };
}

async function signInChallenge(): Promise<string> {
  const options = await api('POST', '/v1/auth/login/passkey/options');
  expect(options.status).toBe(200);
  expect(options.body.data.allowCredentials ?? []).toEqual([]);
  return options.body.data.challenge as string;
}

const signIn = (credential: unknown, headers?: Record<string, string>) => api('POST', '/v1/auth/login/passkey', { body: { credential }, ...(headers ? { headers } : {}) });

async function auditOf(userId: string) {
  const { db } = await testServer();
  return db.selectFrom('auditLog').select(['action', 'details']).where('subjectId', '=', userId).orderBy('id').execute();
}

describe('issue 25: adding, renaming and removing passkeys', () => {
  it('adds a passkey from options made for the caller, lists it, mails a notice, and 2FA counts as on', async () => {
    const user = await createUser();
    expect((await api('GET', '/v1/auth/passkeys', { token: user.token })).body.data).toEqual([]);
    const options = await registrationOptions(user);
    const { baseUrl } = await testServer();
    expect(options.rp.id).toBe(new URL(baseUrl).hostname);
    expect(options.user.name).toBe(user.email);
    expect(isoBase64URL.toUTF8String(options.user.id)).toBe(user.userId);
    expect(isoBase64URL.toBuffer(options.challenge)).toHaveLength(32);

    const authenticator = await authenticatorFor();
    const added = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: '  Work phone ', credential: authenticator.attest(options) } });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe(m.added);
    expect(added.body.data).toMatchObject({ _id: authenticator.id, name: 'Work phone', lastUsedAt: null, backedUp: false });

    const listed = await api('GET', '/v1/auth/passkeys', { token: user.token });
    expect(listed.body.data).toEqual([added.body.data]);
    expect((await latestMailTo(user.email))?.subject).toBe('A passkey was added to your Kestrel account');
    expect((await auditOf(user.userId)).map((row) => row.action)).toContain('auth.passkey_added');

    // The password alone no longer signs in: the second step asks for the passkey (no app set up).
    const login = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    expect(login.body.data.token).toBeUndefined();
    expect(login.body.data.secondStep).toBe('passkey');
    expect(login.body.data.passkey.allowCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }]);

    // The next registration's options exclude it, and the same authenticator cannot be added twice.
    const again = await registrationOptions(user);
    expect(again.excludeCredentials.map((credential) => credential.id)).toEqual([authenticator.id]);
    const twice = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Again', credential: authenticator.attest(again) } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: m.alreadyRegistered, code: 'passkey_already_registered' });
  });

  it('refuses a replayed, expired, made-up or another person\'s registration challenge, and another origin', async () => {
    const user = await createUser();
    const other = await createUser();
    const options = await registrationOptions(user);
    const first = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'One', credential: (await authenticatorFor()).attest(options) } });
    expect(first.status).toBe(200);
    const replayed = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Two', credential: (await authenticatorFor()).attest(options) } });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toMatchObject({ error: m.challengeInvalid, code: 'passkey_challenge_invalid' });

    const madeUp = { ...options, challenge: isoBase64URL.fromBuffer(new Uint8Array(randomBytes(32))) };
    expect((await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Three', credential: (await authenticatorFor()).attest(madeUp) } })).body.code).toBe('passkey_challenge_invalid');

    const othersOptions = await registrationOptions(other);
    const stolen = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Four', credential: (await authenticatorFor()).attest(othersOptions) } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe('passkey_challenge_invalid');

    const phished = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Five', credential: (await authenticatorFor()).attest(await registrationOptions(user), { origin: 'https://kestrel.example.net' }) } });
    expect(phished.status).toBe(400);
    expect(phished.body).toMatchObject({ error: m.registrationFailed, code: 'passkey_invalid' });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const late = await registrationOptions(user);
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1_000);
    const expired = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Six', credential: (await authenticatorFor()).attest(late) } });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('passkey_challenge_invalid');
    expect((await api('GET', '/v1/auth/passkeys', { token: user.token })).body.data).toHaveLength(1);
  });

  it('renames and removes only the caller\'s own passkeys; removing needs a current second factor (here a passkey), not the password', async () => {
    const user = await userWithPasskey();
    const stranger = await createUser();
    const id = user.authenticator.id;
    const path = `/v1/auth/passkeys/${id}`;

    expect((await api('PATCH', path, { token: stranger.token, body: { name: 'Mine now' } })).status).toBe(404);
    const renamed = await api('PATCH', path, { token: user.token, body: { name: 'Old laptop' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ message: m.renamed, data: { _id: id, name: 'Old laptop' } });
    expect((await api('PATCH', path, { token: user.token, body: { name: '' } })).body.fields).toEqual({ name: m.nameRequired });

    expect((await api('POST', `${path}/remove`, { token: stranger.token, body: { code: '123456' } })).status).toBe(404);
    const empty = await api('POST', `${path}/remove`, { token: user.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({ code: m.confirmRequired });
    // The password alone removes no second factor (it would turn two-factor sign-in off with the first factor).
    const withPassword = await api('POST', `${path}/remove`, { token: user.token, body: { password: user.password } });
    expect(withPassword.status).toBe(400);
    // No app: no code is a current second factor.
    const noApp = await api('POST', `${path}/remove`, { token: user.token, body: { code: '123456' } });
    expect(noApp.status).toBe(400);
    expect(noApp.body.error).toBe(twoFactorMessages.codeInvalid);
    // A passkey's assertion over another ceremony's challenge (a sign-in's) confirms nothing.
    const otherCeremony = await api('POST', `${path}/remove`, { token: user.token, body: { passkey: user.authenticator.assert(await signInChallenge()) } });
    expect(otherCeremony.status).toBe(400);
    expect(otherCeremony.body).toMatchObject({ code: 'passkey_invalid', error: m.confirmFailed });
    expect((await api('GET', '/v1/auth/passkeys', { token: user.token })).body.data).toHaveLength(1);

    // One of the person's passkeys confirms, over a challenge made for them.
    expect((await api('POST', '/v1/auth/passkeys/confirm/options', { token: stranger.token })).status).toBe(404);
    const options = await api('POST', '/v1/auth/passkeys/confirm/options', { token: user.token });
    expect(options.status).toBe(200);
    expect(options.body.data.allowCredentials).toEqual([expect.objectContaining({ id })]);
    const confirmChallenge = options.body.data.challenge as string;
    const removed = await api('POST', `${path}/remove`, { token: user.token, body: { passkey: user.authenticator.assert(confirmChallenge) } });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(m.removed);
    expect((await api('GET', '/v1/auth/passkeys', { token: user.token })).body.data).toEqual([]);

    // It was the last second factor: both mails, the passkey's and two-factor sign-in turned off, its words true.
    const { db } = await testServer();
    const mails = await db.selectFrom('mailMessages').select(['subject', 'textBody', 'template']).where('toAddress', '=', user.email).execute();
    const subjects = mails.map((mail) => mail.subject);
    expect(subjects).toEqual(expect.arrayContaining(['A passkey was removed from your Kestrel account', 'Two-factor sign-in was turned off for your Kestrel account']));
    expect(subjects.filter((subject) => subject.startsWith('Two-factor sign-in was turned off'))).toHaveLength(1);
    const off = mails.find((mail) => mail.template === 'two_factor_disabled')!;
    expect(off.textBody).toContain('Your last passkey was removed, so logging in to Kestrel no longer asks for a second step after your password: your password alone signs you in.');
    expect((await auditOf(user.userId)).filter((row) => row.action === 'auth.two_factor_disabled').map((row) => row.details)).toEqual([{ with: 'passkey', by: 'last_passkey_removed' }]);

    // No second factor left: the password alone signs in again, and the removed passkey signs in no more.
    const login = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(typeof login.body.data.token).toBe('string');
    const gone = await signIn(user.authenticator.assert(await signInChallenge()));
    expect(gone.status).toBe(401);
    expect(gone.body).toMatchObject({ error: m.signInFailed, code: 'passkey_invalid' });
  });
});

describe('issue 25: signing in with a passkey, without the password', () => {
  it('opens a session like a password sign-in: audit, the counter and last use recorded, the new-device alert', async () => {
    const user = await userWithPasskey();
    const answer = await signIn(user.authenticator.assert(await signInChallenge()), { 'user-agent': 'Passkey test browser' });
    expect(answer.status).toBe(200);
    expect(answer.body.data._id).toBe(user.userId);
    expect(answer.headers.get('set-cookie')).toContain('kestrel_device=');
    const token = answer.body.data.token as string;
    expect((await api('GET', `/v1/user/${user.userId}`, { token })).status).toBe(200);

    const { db } = await testServer();
    const row = await db.selectFrom('passkeys').select(['signCount', 'lastUsedAt']).where('id', '=', user.authenticator.id).executeTakeFirstOrThrow();
    expect(row.signCount).toBe(1);
    expect(row.lastUsedAt).not.toBeNull();
    const login = (await auditOf(user.userId)).filter((entry) => entry.action === 'auth.login').at(-1);
    expect(login?.details).toEqual({ via: 'passkey', secondFactor: 'passkey' });
    const alerts = await db.selectFrom('notificationEvents').select('id').where('kind', '=', 'new_device_sign_in').where('subjectId', '=', user.userId).execute();
    expect(alerts).toHaveLength(1);
  });

  it('refuses a replayed, made-up or expired challenge, another origin, an unverified person and a counter that does not move on', async () => {
    const user = await userWithPasskey();
    const challenge = await signInChallenge();
    const first = user.authenticator.assert(challenge);
    expect((await signIn(first)).status).toBe(200);
    const replayed = await signIn(first);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: m.challengeInvalid, code: 'passkey_challenge_invalid' });

    const madeUp = await signIn(user.authenticator.assert(isoBase64URL.fromBuffer(new Uint8Array(randomBytes(32)))));
    expect(madeUp.body.code).toBe('passkey_challenge_invalid');

    const phished = await signIn(user.authenticator.assert(await signInChallenge(), { origin: 'https://kestrel.example.net' }));
    expect(phished.status).toBe(401);
    expect(phished.body.code).toBe('passkey_invalid');

    const unverified = await signIn(user.authenticator.assert(await signInChallenge(), { userVerified: false }));
    expect(unverified.status).toBe(401);
    expect(unverified.body.code).toBe('passkey_invalid');

    // A copy of the authenticator sends a counter the server has already seen.
    const cloned = await signIn(user.authenticator.assert(await signInChallenge(), { counter: 1 }));
    expect(cloned.status).toBe(401);
    expect(cloned.body).toMatchObject({ error: m.counterStale, code: 'passkey_counter_stale' });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const late = await signInChallenge();
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1_000);
    const expired = await signIn(user.authenticator.assert(late));
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('passkey_challenge_invalid');

    // Each failure with a known passkey is a failed login of its person, and audited.
    const { db } = await testServer();
    const failed = await db.selectFrom('loginAttempts').select('id').where('email', '=', user.email).where('succeeded', '=', false).execute();
    expect(failed).toHaveLength(3);
    expect((await auditOf(user.userId)).filter((entry) => entry.action === 'auth.passkey_sign_in_failed')).toHaveLength(3);
  });

  it('takes a passkey that keeps no counter (always 0)', async () => {
    const user = await createUser();
    const { baseUrl } = await testServer();
    const authenticator = new SoftAuthenticator(baseUrl, undefined, false);
    expect((await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Key', credential: authenticator.attest(await registrationOptions(user)) } })).status).toBe(200);
    expect((await signIn(authenticator.assert(await signInChallenge()))).status).toBe(200);
    expect((await signIn(authenticator.assert(await signInChallenge()))).status).toBe(200);
  });

  it('refuses a user handle that is not the passkey owner\'s', async () => {
    const user = await userWithPasskey();
    const other = await createUser();
    const answer = await signIn(user.authenticator.assert(await signInChallenge(), { userHandle: isoBase64URL.fromUTF8String(other.userId) }));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('passkey_invalid');
  });

  it('limits failed passkey checks per person like passwords (429)', async () => {
    const user = await userWithPasskey();
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      expect((await signIn(user.authenticator.assert(await signInChallenge(), { origin: 'https://kestrel.example.net' }))).status).toBe(401);
    }
    const limited = await signIn(user.authenticator.assert(await signInChallenge()));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('second_factor_rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('issue 25: a passkey as the second step after the password', () => {
  const passwordStep = (user: TestUser) => api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });

  it('finishes the sign-in with a passkey over the challenge made for it', async () => {
    const user = await userWithPasskey();
    const step = await passwordStep(user);
    const { challengeToken, passkey } = step.body.data as { challengeToken: string; passkey: { challenge: string } };
    const done = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: user.authenticator.assert(passkey.challenge, { userVerified: false }) } });
    expect(done.status).toBe(200);
    expect(done.body.data._id).toBe(user.userId);
    const login = (await auditOf(user.userId)).filter((entry) => entry.action === 'auth.login').at(-1);
    expect(login?.details).toEqual({ via: 'second_factor', secondFactor: 'passkey' });
    // The login challenge is spent with it.
    const again = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: user.authenticator.assert(passkey.challenge) } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('login_challenge_invalid');
  });

  it("refuses another person's passkey, a passwordless sign-in's challenge, another sign-in's challenge, and neither code nor passkey", async () => {
    const user = await userWithPasskey();
    const other = await userWithPasskey();
    const step = await passwordStep(user);
    const { challengeToken, passkey } = step.body.data as { challengeToken: string; passkey: { challenge: string } };

    const othersKey = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: other.authenticator.assert(passkey.challenge) } });
    expect(othersKey.status).toBe(401);
    expect(othersKey.body).toMatchObject({ error: m.signInFailed, code: 'passkey_invalid' });

    const passwordless = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: user.authenticator.assert(await signInChallenge()) } });
    expect(passwordless.body.code).toBe('passkey_invalid');

    const elsewhere = (await passwordStep(user)).body.data as { passkey: { challenge: string } };
    const crossed = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: user.authenticator.assert(elsewhere.passkey.challenge) } });
    expect(crossed.body.code).toBe('passkey_invalid');

    const neither = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken } });
    expect(neither.status).toBe(400);
    expect(neither.body.fields).toEqual({ code: twoFactorMessages.codeRequired });

    // The passkey's own challenge was spent by the refused answer above: the sign-in starts again.
    const spent = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken, passkey: user.authenticator.assert(passkey.challenge) } });
    expect(spent.status).toBe(401);
    expect(spent.body.code).toBe('passkey_invalid');
  });

  it('with an authenticator app on as well, asks for its code first and offers the passkey beside it; either finishes', async () => {
    const user = await userWithPasskey();
    const setup = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    const secret = Secret.fromBase32(setup.body.data.secret as string);
    const codeAt = (timestamp: number) => TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp });
    expect((await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeAt(Date.now() - 30_000), password: user.password } })).status).toBe(200);

    const first = (await passwordStep(user)).body.data as { secondStep: string; challengeToken: string; passkey: { challenge: string } };
    expect(first.secondStep).toBe('totp');
    const withPasskey = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken: first.challengeToken, passkey: user.authenticator.assert(first.passkey.challenge) } });
    expect(withPasskey.status).toBe(200);

    const second = (await passwordStep(user)).body.data as { challengeToken: string };
    const withCode = await api('POST', '/v1/auth/login/second-step', { body: { challengeToken: second.challengeToken, code: codeAt(Date.now()) } });
    expect(withCode.status).toBe(200);
  });

  it('with an app on as well: a code from it removes a passkey (2FA stays on, no "turned off" mail); the app turned off while a passkey remains says the passkey still answers', async () => {
    const user = await userWithPasskey();
    const phone = await authenticatorFor();
    expect((await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Phone', credential: phone.attest(await registrationOptions(user)) } })).status).toBe(200);
    const setup = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    const secret = Secret.fromBase32(setup.body.data.secret as string);
    const codeAt = (timestamp: number) => TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp });
    expect((await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeAt(Date.now() - 30_000), password: user.password } })).status).toBe(200);

    const removed = await api('POST', `/v1/auth/passkeys/${user.authenticator.id}/remove`, { token: user.token, body: { code: codeAt(Date.now()) } });
    expect(removed.status).toBe(200);
    expect((await latestMailTo(user.email))?.subject).toBe('A passkey was removed from your Kestrel account');
    expect((await auditOf(user.userId)).map((row) => row.action)).not.toContain('auth.two_factor_disabled');

    const off = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: codeAt(Date.now() + 30_000) } });
    expect(off.status).toBe(200);
    const mail = await latestMailTo(user.email);
    expect(mail?.subject).toBe('Your authenticator app was turned off for your Kestrel account');
    expect(mail?.textBody).toContain('Two-factor sign-in stays on with your passkeys: after your password, one of them answers the second step.');
    expect(mail?.textBody).not.toContain('password alone');
    // And so it does: the password step asks for the passkey left.
    const step = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(step.body.data.secondStep).toBe('passkey');
  });

  it('adding a passkey asks for the password: without it or with a wrong one no challenge is made, and nothing is added', async () => {
    const user = await createUser();
    const missing = await api('POST', '/v1/auth/passkeys/options', { token: user.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ password: messages.login.passwordRequired });
    const wrong = await api('POST', '/v1/auth/passkeys/options', { token: user.token, body: { password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'password_invalid', error: m.passwordWrong, fields: { password: m.passwordWrong } });
    // A made-up challenge is not one: the passkey is refused.
    const madeUp = { challenge: isoBase64URL.fromBuffer(new Uint8Array(randomBytes(32))), user: { id: isoBase64URL.fromBuffer(new TextEncoder().encode(user.userId)) } };
    const added = await api('POST', '/v1/auth/passkeys', { token: user.token, body: { name: 'Thief', credential: (await authenticatorFor()).attest(madeUp) } });
    expect(added.body.code).toBe('passkey_challenge_invalid');
    expect((await api('GET', '/v1/auth/passkeys', { token: user.token })).body.data).toEqual([]);
  });
});

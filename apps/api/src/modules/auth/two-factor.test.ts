import { LOGIN_CHALLENGE_MAX_FAILURES, messages, passkeyMessages, twoFactorMessages } from '@kestrel/shared';
import { describe, expect, it, vi } from 'vitest';
import { createUser, latestMailTo, type TestUser } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { codeOf, nextStep, useSteppedClock } from '../../../test/totp.ts';
import { LOGIN_THROTTLE } from './login-throttle.ts';

/*
 * Two-factor sign-in with an authenticator app (issue 25). The codes are computed here from
 * the secret the API answers, as the person's app would. The clock (Date only, in this
 * process: the server's too) is moved a 30-second step on before each code, so each code is
 * a fresh one; the replay tests use the same step on purpose.
 */

const m = twoFactorMessages;

useSteppedClock();
/** A 6-digit code that matches none of the steps taken now (the current one and one either side). */
function wrongCodeOf(secret: string): string {
  const taken = new Set([-30_000, 0, 30_000].map((offset) => codeOf(secret, Date.now() + offset)));
  let guess = 123456;
  while (taken.has(String(guess).padStart(6, '0'))) guess += 1;
  return String(guess).padStart(6, '0');
}

interface Enrolled extends TestUser {
  secret: string;
  recoveryCodes: string[];
}

/** Signs in once with the password (so a later sign-in elsewhere is a "new device"), then turns 2FA on. */
async function enrolledUser(): Promise<Enrolled> {
  const user = await createUser();
  expect((await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  const setup = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  nextStep();
  const enabled = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeOf(secret), password: user.password } });
  expect(enabled.status).toBe(200);
  return { ...user, secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
}

const passwordStep = (user: TestUser, headers?: Record<string, string>) =>
  api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password }, ...(headers ? { headers } : {}) });
const secondStep = (challengeToken: string, code: string) => api('POST', '/v1/auth/login/second-step', { body: { challengeToken, code } });

async function challengeFor(user: TestUser): Promise<string> {
  const answer = await passwordStep(user);
  expect(answer.status).toBe(200);
  return answer.body.data.challengeToken as string;
}

async function auditActions(userId: string): Promise<string[]> {
  const { db } = await testServer();
  const rows = await db.selectFrom('auditLog').select('action').where('subjectId', '=', userId).orderBy('id').execute();
  return rows.map((row) => row.action);
}

async function newDeviceEvents(userId: string): Promise<number> {
  const { db } = await testServer();
  const rows = await db.selectFrom('notificationEvents').select('id').where('kind', '=', 'new_device_sign_in').where('subjectId', '=', userId).execute();
  return rows.length;
}

describe('issue 25: turning two-factor sign-in on and off', () => {
  it('starts with a sealed secret (base32 text and an otpauth URI), stays off until a right code confirms it, then answers ten recovery codes once', async () => {
    const user = await createUser();
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const setup = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const { secret, otpauthUri } = setup.body.data as { secret: string; otpauthUri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ issuer: 'Kestrel', secret, algorithm: 'SHA1', digits: '6', period: '30' });
    expect(decodeURIComponent(uri.pathname)).toBe(`/Kestrel:${user.email}`);
    // Stored sealed: the base32 text is not in the row.
    const { db } = await testServer();
    const row = await db.selectFrom('userTotp').selectAll().where('userId', '=', user.userId).executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(secret);
    expect(row.enabledAt).toBeNull();

    // Not on yet: the password alone still signs in.
    expect((await passwordStep(user)).body.data.token).toEqual(expect.any(String));

    const wrong = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: wrongCodeOf(secret), password: user.password } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: m.codeInvalid, code: 'second_factor_invalid' });
    const empty = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: ' ', password: user.password } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe(m.codeRequired);
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data.enabled).toBe(false);

    nextStep();
    const enabled = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeOf(secret), password: user.password } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.message).toBe(m.enabled);
    const codes = enabled.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Only keyed hashes are stored.
    const stored = await db.selectFrom('recoveryCodes').select('codeHash').where('userId', '=', user.userId).execute();
    expect(stored).toHaveLength(10);
    for (const { codeHash } of stored) for (const code of codes) expect(codeHash).not.toContain(code.replace('-', ''));

    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect(await auditActions(user.userId)).toContain('auth.two_factor_enabled');
    expect((await latestMailTo(user.email))?.subject).toBe('Two-factor sign-in is on for your Kestrel account');

    // On: a new setup cannot replace the secret, and enabling again is refused.
    const again = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(m.alreadyOn);
  });

  it('turning on asks for the password, checked and counted as the sign-in checks it: guesses here slow the sign-in too', async () => {
    const user = await createUser();
    // Without a body at all, then without the password: refused before anything is checked.
    expect((await api('POST', '/v1/auth/two-factor/setup', { token: user.token })).status).toBe(400);
    const missing = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ password: messages.login.passwordRequired });
    // The free wrong guesses of this e-mail at this address (the sign-in's own budget) and the one
    // that starts the wait, each a field error; the next attempt must wait, whatever its password.
    for (let guess = 0; guess <= LOGIN_THROTTLE.perEmailAndIp.free; guess += 1) {
      const wrong = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: `guess-${guess}` } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ code: 'password_invalid', error: passkeyMessages.passwordWrong, fields: { password: passkeyMessages.passwordWrong } });
    }
    const limited = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'login_rate_limited', error: messages.login.rateLimited });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // One count: the sign-in from this address waits as well, even with the right password.
    expect((await passwordStep(user)).status).toBe(429);
    const { db } = await testServer();
    expect(await db.selectFrom('userTotp').select('userId').where('userId', '=', user.userId).executeTakeFirst()).toBeUndefined();
  });

  it('turning on asks for the password again with the code: a started setup is not turned on without it', async () => {
    const user = await createUser();
    const setup = await api('POST', '/v1/auth/two-factor/setup', { token: user.token, body: { password: user.password } });
    const secret = setup.body.data.secret as string;
    nextStep();
    const noPassword = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeOf(secret) } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.fields).toEqual({ password: messages.login.passwordRequired });
    const wrong = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeOf(secret), password: 'not-the-password' } });
    expect(wrong.body.code).toBe('password_invalid');
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data.enabled).toBe(false);
    const right = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: codeOf(secret), password: user.password } });
    expect(right.status).toBe(200);
  });

  it('refuses to turn on without a started setup', async () => {
    const user = await createUser();
    const answer = await api('POST', '/v1/auth/two-factor/enable', { token: user.token, body: { code: '123456', password: user.password } });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: m.notStarted, code: 'two_factor_not_started' });
  });

  it('turns off only with a current code (a wrong or reused one changes nothing), then the password alone signs in', async () => {
    const user = await enrolledUser();
    const noCode = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: {} });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error).toBe(m.codeRequired);
    const wrong = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: wrongCodeOf(user.secret) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(m.codeInvalid);
    // The code that turned it on is spent: it cannot turn it off.
    const reused = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: codeOf(user.secret) } });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: m.codeReused, code: 'second_factor_reused' });
    const badRecovery = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: 'aaaaa-aaaaa' } });
    expect(badRecovery.status).toBe(400);
    expect(badRecovery.body.error).toBe(m.recoveryCodeInvalid);
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data.enabled).toBe(true);
    expect((await passwordStep(user)).body.data.secondStep).toBe('totp');

    nextStep();
    const off = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: codeOf(user.secret) } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ status: 'success', message: m.disabled, data: null });
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await passwordStep(user)).body.data.token).toEqual(expect.any(String));
    expect(await auditActions(user.userId)).toContain('auth.two_factor_disabled');
    expect((await latestMailTo(user.email))?.subject).toBe('Two-factor sign-in was turned off for your Kestrel account');
    const again = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: codeOf(user.secret) } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(m.notOn);
  });

  it('makes ten new recovery codes with a current app code (not with a recovery code); the old ones stop working', async () => {
    const stranger = await createUser();
    const notOn = await api('POST', '/v1/auth/two-factor/recovery-codes', { token: stranger.token, body: { code: '123456' } });
    expect(notOn.status).toBe(409);
    expect(notOn.body).toMatchObject({ error: m.notOn, code: 'two_factor_not_on' });

    const user = await enrolledUser();
    const withRecovery = await api('POST', '/v1/auth/two-factor/recovery-codes', { token: user.token, body: { code: user.recoveryCodes[0] } });
    expect(withRecovery.status).toBe(400);
    const wrong = await api('POST', '/v1/auth/two-factor/recovery-codes', { token: user.token, body: { code: wrongCodeOf(user.secret) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: m.codeInvalid, fields: { code: m.codeInvalid } });
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    nextStep();
    const renewed = await api('POST', '/v1/auth/two-factor/recovery-codes', { token: user.token, body: { code: codeOf(user.secret) } });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('cache-control')).toBe('no-store');
    expect(renewed.body.message).toBe(m.recoveryCodesRenewed);
    const codes = renewed.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(codes.some((code) => user.recoveryCodes.includes(code))).toBe(false);
    expect(await auditActions(user.userId)).toContain('auth.recovery_codes_renewed');
    expect((await latestMailTo(user.email))?.subject).toBe('New recovery codes for your Kestrel account');

    // An old code no longer finishes a sign-in; a new one does, once.
    const old = await secondStep(await challengeFor(user), user.recoveryCodes[1]!);
    expect(old.status).toBe(401);
    const fresh = await secondStep(await challengeFor(user), codes[0]!);
    expect(fresh.status).toBe(200);
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('turns off with a recovery code too (the phone is lost), audited as a recovery code use', async () => {
    const user = await enrolledUser();
    const off = await api('POST', '/v1/auth/two-factor/disable', { token: user.token, body: { code: user.recoveryCodes[3]!.toUpperCase() } });
    expect(off.status).toBe(200);
    const actions = await auditActions(user.userId);
    expect(actions).toContain('auth.recovery_code_used');
    expect(actions.at(-1)).toBe('auth.two_factor_disabled');
  });
});

describe('issue 25: signing in with two-factor sign-in on', () => {
  it('answers a challenge after the password (no session, no cookie, no new-device mail), and the session only after the code', async () => {
    const user = await enrolledUser();
    const { db } = await testServer();
    const sessionsBefore = (await db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()).length;
    const eventsBefore = await newDeviceEvents(user.userId);

    const first = await passwordStep(user);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(Object.keys(first.body.data).sort()).toEqual(['challengeToken', 'expiresAt', 'secondStep']);
    expect(first.body.data.secondStep).toBe('totp');
    const expiresIn = Date.parse(first.body.data.expiresAt as string) - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
    const challengeToken = first.body.data.challengeToken as string;
    // The challenge is no session: it opens nothing.
    expect((await api('GET', `/v1/user/${user.userId}`, { token: challengeToken })).status).toBe(401);
    expect((await db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()).length).toBe(sessionsBefore);
    expect(await newDeviceEvents(user.userId)).toBe(eventsBefore);
    // Stored by digest only.
    const stored = await db.selectFrom('loginChallenges').select('tokenHash').where('userId', '=', user.userId).execute();
    expect(stored.map((row) => row.tokenHash)).not.toContain(challengeToken);

    nextStep();
    const done = await secondStep(challengeToken, codeOf(user.secret));
    expect(done.status).toBe(200);
    expect(Object.keys(done.body.data).sort()).toEqual(['_id', 'accounts', 'token']);
    expect(done.body.data._id).toBe(user.userId);
    expect(done.headers.get('set-cookie')).toMatch(/^kestrel_device=/);
    expect((await api('GET', `/v1/user/${user.userId}`, { token: done.body.data.token as string })).status).toBe(200);
    expect(await newDeviceEvents(user.userId)).toBe(eventsBefore + 1);
    expect(await auditActions(user.userId)).toContain('auth.login');

    // Single use: the same challenge with the next code opens nothing.
    nextStep();
    const replayed = await secondStep(challengeToken, codeOf(user.secret));
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: m.challengeInvalid, code: 'login_challenge_invalid' });
  });

  it('refuses a code already used (replay within its window), a wrong code, and a made-up challenge', async () => {
    const user = await enrolledUser();
    nextStep();
    const code = codeOf(user.secret);
    expect((await secondStep(await challengeFor(user), code)).status).toBe(200);

    const replayed = await secondStep(await challengeFor(user), code);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: m.codeReused, code: 'second_factor_reused' });
    // An older step's code is refused too once a later one was used.
    const older = await secondStep(await challengeFor(user), codeOf(user.secret, Date.now() - 30_000));
    expect(older.status).toBe(401);

    const wrong = await secondStep(await challengeFor(user), wrongCodeOf(user.secret));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: m.codeInvalid, code: 'second_factor_invalid' });

    const madeUp = await secondStep('x'.repeat(43), code);
    expect(madeUp.status).toBe(401);
    expect(madeUp.body.error).toBe(m.challengeInvalid);
  });

  it('takes a code one step either side (clock drift), not two', async () => {
    const user = await enrolledUser();
    nextStep();
    nextStep();
    const ahead = await secondStep(await challengeFor(user), codeOf(user.secret, Date.now() + 30_000));
    expect(ahead.status).toBe(200);
    nextStep();
    nextStep();
    nextStep();
    const farAhead = await secondStep(await challengeFor(user), codeOf(user.secret, Date.now() + 60_000));
    expect(farAhead.status).toBe(401);
    expect(farAhead.body.error).toBe(m.codeInvalid);
  });

  it('lets a challenge expire after five minutes', async () => {
    const user = await enrolledUser();
    const challenge = await challengeFor(user);
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1_000);
    const late = await secondStep(challenge, codeOf(user.secret));
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ error: m.challengeInvalid, code: 'login_challenge_invalid' });
  });

  it('spends a challenge after five wrong codes, and limits code checks per account like passwords (429)', async () => {
    const user = await enrolledUser();
    const { db } = await testServer();
    const sessionsOf = async () => (await db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()).length;
    const sessionsBefore = await sessionsOf();
    const first = await challengeFor(user);
    for (let attempt = 1; attempt <= LOGIN_CHALLENGE_MAX_FAILURES; attempt += 1) {
      const wrong = await secondStep(first, wrongCodeOf(user.secret));
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe(m.codeInvalid);
    }
    nextStep();
    const spent = await secondStep(first, codeOf(user.secret));
    expect(spent.status).toBe(401);
    expect(spent.body.error).toBe(m.challengeInvalid);

    // Five failures are free at one address; the sixth is checked, then the next must wait, right code or not.
    const second = await challengeFor(user);
    expect((await secondStep(second, wrongCodeOf(user.secret))).status).toBe(401);
    const limited = await secondStep(second, codeOf(user.secret));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: m.rateLimited, code: 'second_factor_rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf()).toBe(sessionsBefore);
  });

  it('signs in with a recovery code once; the same code again is refused; the count goes down', async () => {
    const user = await enrolledUser();
    const recovery = user.recoveryCodes[0]!;
    const used = await secondStep(await challengeFor(user), ` ${recovery.toUpperCase()} `);
    expect(used.status).toBe(200);
    expect((await api('GET', `/v1/user/${user.userId}`, { token: used.body.data.token as string })).status).toBe(200);
    expect(await auditActions(user.userId)).toContain('auth.recovery_code_used');
    expect((await api('GET', '/v1/auth/two-factor', { token: user.token })).body.data.recoveryCodesLeft).toBe(9);

    const again = await secondStep(await challengeFor(user), recovery);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ error: m.recoveryCodeInvalid, code: 'recovery_code_invalid' });
    // Another user's recovery code is nobody's here.
    const other = await enrolledUser();
    const foreign = await secondStep(await challengeFor(user), other.recoveryCodes[0]!);
    expect(foreign.status).toBe(401);
  });
});

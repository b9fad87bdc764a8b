import {
  LOGIN_CHALLENGE_MAX_FAILURES,
  LOGIN_CHALLENGE_MINUTES,
  type LoginAnswer,
  type LoginBody,
  type LoginResult,
  type LoginSecondStepBody,
  type PasskeySignInBody,
} from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserByEmail, listUserAccounts } from '../users/users.service.ts';
import { burnVerificationTime, verifySecret } from '../../security/passwords.ts';
import { hashToken, newOpaqueToken } from '../../security/tokens.ts';
import { createSession, revokeSession } from '../sessions/sessions.service.ts';
import { recordActivities } from '../activities/activities.service.ts';
import { recordNotificationEvent } from '../mail/notification-events.ts';
import { deviceCookieFor, type KnownDevice } from './device-cookie.ts';
import { admitLoginAttempt, afterSuccessfulLogin, LOGIN_THROTTLE, passwordThrottleKeys } from './login-throttle.ts';
import { checkAssertion, passkeyOwner, secondStepPasskeyOptions, spendAssertion, spendChallenge, type CheckedAssertion } from './passkeys.service.ts';
import { admitCodeCheck, recoveryCodesLeft, refusalMessage, signInRefusalCode, SecondFactorRefused, spendSecondFactor, totpEnabledFor, twoFactorEnabledFor } from './two-factor.service.ts';

export interface LoginRequest {
  ip: string;
  userAgent?: string | undefined;
  /** The device cookie's content, when the request carried a valid one (a hint, never a credential). */
  knownDevice?: KnownDevice | undefined;
}

export interface LoginOutcome {
  result: LoginResult;
  /** Set-Cookie for the device cookie, naming this user as known on this device. */
  deviceCookie: string;
}

/** The password step's outcome: a session, or (2FA on) the second step it needs, with no cookie. */
export type PasswordStepOutcome = LoginOutcome | { result: Extract<LoginAnswer, { secondStep: string }>; deviceCookie?: undefined };

/** Whether this e-mail has signed in successfully before (read before this sign-in is recorded). */
async function hasSignedInBefore(db: Db, email: string): Promise<boolean> {
  const earlier = await db.selectFrom('loginAttempts').select('id').where('email', '=', email).where('succeeded', '=', true).limit(1).executeTakeFirst();
  return earlier !== undefined;
}

function refused(retryAfterMs: number): Refusal {
  const error = refuse('login_rate_limited');
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return error;
}

/**
 * Checks the password and opens a session. An unknown e-mail and a wrong password get the
 * same status, body and (roughly) the same time. Every attempt passes the throttle before
 * the (slow) password check: from a device this account signed in from before, only that
 * device's own delay; otherwise the (e-mail, address), e-mail and address delays. A refused
 * attempt answers 429 with Retry-After and is not checked at all. With two-factor sign-in on,
 * the right password answers a challenge for the second step instead (no session, no cookie).
 */
export async function login(ctx: AppContext, body: LoginBody, request: LoginRequest): Promise<PasswordStepOutcome> {
  const { ip, knownDevice } = request;
  const email = body.email.trim().toLowerCase();
  const user = await findUserByEmail(ctx.db, email);
  const deviceKey = user && knownDevice?.userIds.includes(user.id) ? `login:device:${knownDevice.deviceId}|${user.id}` : undefined;
  const keys = passwordThrottleKeys(ctx.config.rateLimits, email, ip);
  const admitted = await admitLoginAttempt(
    ctx.db,
    deviceKey ? [{ key: deviceKey, policy: LOGIN_THROTTLE.perDevice }] : [...keys.owner, ...keys.shared],
  );
  if (!admitted.admitted) throw refused(admitted.retryAfterMs);

  const valid = user ? await verifySecret(user.passwordHash, body.password) : (await burnVerificationTime(body.password), false);
  if (!user || !valid) {
    await ctx.db.insertInto('loginAttempts').values({ email, ip, succeeded: false }).execute();
    throw refuse('invalid_credentials');
  }
  if (deviceKey) await afterSuccessfulLogin(ctx.db, [deviceKey], []);
  else await afterSuccessfulLogin(ctx.db, keys.owner.map((entry) => entry.key), keys.shared);

  if (await twoFactorEnabledFor(ctx.db, user.id)) return { result: await openChallenge(ctx, user.id, ip) };
  return openSession(ctx, { id: user.id, email }, request, 'password');
}

/**
 * The second step of a sign-in with 2FA on: 256 random bits (only the SHA-256 stored), valid
 * LOGIN_CHALLENGE_MINUTES, single use. It is no session: nothing else accepts it.
 */
async function openChallenge(ctx: AppContext, userId: string, ip: string): Promise<Extract<LoginAnswer, { secondStep: string }>> {
  const challengeToken = newOpaqueToken();
  const expiresAt = new Date(Date.now() + LOGIN_CHALLENGE_MINUTES * 60_000);
  const withApp = await totpEnabledFor(ctx.db, userId);
  const passkey = await inTransaction(ctx.db, async (trx) => {
    const { id } = await trx.insertInto('loginChallenges').values({ userId, tokenHash: hashToken(challengeToken), expiresAt }).returning('id').executeTakeFirstOrThrow();
    await recordAudit(trx, { actorUserId: userId, action: 'auth.login_second_step_asked', subjectType: 'user', subjectId: userId, ip });
    // With a passkey, the second step may be answered by it: a WebAuthn challenge bound to this one.
    return secondStepPasskeyOptions(trx, ctx, userId, id);
  });
  return { secondStep: withApp || !passkey ? 'totp' : 'passkey', challengeToken, expiresAt: expiresAt.toISOString(), ...(passkey ? { passkey } : {}) };
}

const challengeRefused = () => refuse('login_challenge_invalid');

/**
 * POST /auth/login/second-step: the challenge and a code (the app's or a recovery code). The
 * challenge must be live (unused, unexpired, fewer than LOGIN_CHALLENGE_MAX_FAILURES wrong
 * codes); the code check is throttled like passwords (admitCodeCheck). A right code spends the
 * challenge and the code and opens the session in one transaction, the same as a password-only
 * sign-in (audit, 'Login' activities, the new-device alert, the device cookie).
 */
export async function loginSecondStep(ctx: AppContext, body: LoginSecondStepBody, request: LoginRequest): Promise<LoginOutcome> {
  const tokenHash = hashToken(body.challengeToken);
  const challenge = await ctx.db
    .selectFrom('loginChallenges')
    .innerJoin('users', 'users.id', 'loginChallenges.userId')
    .select(['loginChallenges.id', 'loginChallenges.userId', 'users.email'])
    .where('loginChallenges.tokenHash', '=', tokenHash)
    .where('loginChallenges.usedAt', 'is', null)
    .where('loginChallenges.expiresAt', '>', new Date())
    .where('loginChallenges.failedAttempts', '<', LOGIN_CHALLENGE_MAX_FAILURES)
    .executeTakeFirst();
  if (!challenge) throw challengeRefused();
  const check = await admitCodeCheck(ctx, challenge.userId, request.ip);
  try {
    // A passkey's assertion: its WebAuthn challenge must be the one made for this sign-in (spent now, whatever follows).
    let assertion: CheckedAssertion | undefined;
    if (body.passkey) {
      const spent = await spendChallenge(ctx.db, body.passkey.response.clientDataJSON, 'second_step', challenge.userId);
      if (spent?.loginChallengeId !== challenge.id) throw new SecondFactorRefused('passkey_invalid');
      const passkey = await passkeyOwner(ctx.db, body.passkey.id, challenge.userId);
      if (!passkey) throw new SecondFactorRefused('passkey_invalid');
      assertion = await checkAssertion(ctx, passkey, body.passkey, spent.challenge, false);
    }
    const outcome = await openSession(ctx, { id: challenge.userId, email: challenge.email }, request, 'second_factor', async (trx) => {
      const spent = await trx
        .updateTable('loginChallenges')
        .set({ usedAt: new Date() })
        .where('id', '=', challenge.id)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', new Date())
        .returning('id')
        .executeTakeFirst();
      if (!spent) throw challengeRefused();
      if (assertion) {
        await spendAssertion(trx, assertion);
        return 'passkey';
      }
      const used = await spendSecondFactor(trx, ctx.config.secretKey, challenge.userId, body.code ?? '');
      if (used === 'recovery_code') {
        const left = await recoveryCodesLeft(trx, challenge.userId);
        await recordAudit(trx, { actorUserId: challenge.userId, action: 'auth.recovery_code_used', subjectType: 'user', subjectId: challenge.userId, ip: request.ip, details: { for: 'login', left } });
      }
      return used;
    });
    await check.accepted();
    return outcome;
  } catch (error) {
    if (!(error instanceof SecondFactorRefused)) throw error;
    // The wrong code counts against this challenge (its last allowed one spends it) and stays counted in the throttle.
    await ctx.db
      .updateTable('loginChallenges')
      .set({
        failedAttempts: sql<number>`failed_attempts + 1`,
        usedAt: sql<Date | null>`CASE WHEN failed_attempts + 1 >= ${LOGIN_CHALLENGE_MAX_FAILURES}::int THEN now() END`,
      })
      .where('id', '=', challenge.id)
      .where('usedAt', 'is', null)
      .execute();
    await recordAudit(ctx.db, { actorUserId: null, action: 'auth.login_second_step_failed', subjectType: 'user', subjectId: challenge.userId, ip: request.ip, details: { reason: error.reason } });
    throw refuse(signInRefusalCode[error.reason], { message: refusalMessage[error.reason] });
  }
}

/**
 * Opens the session once every step passed. The session, the spending of the second step
 * (`inside`), its audit entry, the 'Login' activities and the new-device alert commit together
 * or not at all, so the alert is only written for a session that exists.
 */
async function openSession(
  ctx: AppContext,
  user: { id: string; email: string },
  request: LoginRequest,
  via: 'password' | 'second_factor' | 'passkey',
  inside?: (trx: Db) => Promise<'totp' | 'recovery_code' | 'passkey'>,
): Promise<LoginOutcome> {
  const { ip, userAgent, knownDevice } = request;
  const knownHere = knownDevice?.userIds.includes(user.id) === true;
  const { token, accounts, alerted } = await inTransaction(ctx.db, async (trx) => {
    const secondFactor = inside ? await inside(trx) : undefined;
    const opened = await createSession(trx, user.id, ip, userAgent);
    const owned = await listUserAccounts(trx, user.id);
    // A device that does not carry this person's known-device cookie gets an alert by mail, but
    // not the first sign-in of an account (right after sign-up there is no other device to warn).
    const alert = !knownHere && (await hasSignedInBefore(trx, user.email));
    if (alert) await recordNotificationEvent(trx, { kind: 'new_device_sign_in', subjectId: user.id, detail: { ip, userAgent: userAgent ?? null } });
    await trx.insertInto('loginAttempts').values({ email: user.email, ip, succeeded: true }).execute();
    await recordAudit(trx, { actorUserId: user.id, action: 'auth.login', subjectType: 'user', subjectId: user.id, ip, ...(secondFactor ? { details: { via, secondFactor } } : {}) });
    await recordActivities(trx, owned.map((account) => ({ accountId: account._id, name: 'Login', comment: `Signed in from ${ip}` })));
    return { token: opened, accounts: owned, alerted: alert };
  });
  if (alerted) ctx.notifications.ring();
  const secure = ctx.config.publicUrl.startsWith('https:') || ctx.config.nodeEnv === 'production';
  return {
    result: { _id: user.id, token, accounts: accounts.map((account) => account._id) },
    deviceCookie: deviceCookieFor(ctx.config.secretKey, knownDevice, user.id, secure),
  };
}

const passkeyRefused = (reason: 'passkey_invalid' | 'passkey_counter' = 'passkey_invalid') => refuse(signInRefusalCode[reason]);

/**
 * POST /auth/login/passkey: a discoverable passkey signs in without the password. The
 * challenge (from /auth/login/passkey/options) is spent first; the passkey names its person, whose
 * checks are throttled like passwords (admitCodeCheck); the assertion is checked (signature,
 * origin, rpID, user handle, counter), then the counter moves on and the session opens in one
 * transaction, as a password sign-in's (audit, 'Login' activities, the new-device alert, the
 * device cookie). A failure is recorded as a failed login of that person.
 */
export async function passkeySignIn(ctx: AppContext, body: PasskeySignInBody, request: LoginRequest): Promise<LoginOutcome> {
  const spent = await spendChallenge(ctx.db, body.credential.response.clientDataJSON, 'sign_in');
  if (!spent) throw refuse('login_passkey_challenge_invalid');
  const passkey = await passkeyOwner(ctx.db, body.credential.id);
  if (!passkey) {
    await recordAudit(ctx.db, { actorUserId: null, action: 'auth.passkey_sign_in_failed', ip: request.ip, details: { reason: 'unknown_passkey' } });
    throw passkeyRefused();
  }
  const check = await admitCodeCheck(ctx, passkey.userId, request.ip);
  try {
    const checked = await checkAssertion(ctx, passkey, body.credential, spent.challenge, true);
    const outcome = await openSession(ctx, { id: passkey.userId, email: passkey.email }, request, 'passkey', async (trx) => {
      await spendAssertion(trx, checked);
      return 'passkey';
    });
    await check.accepted();
    return outcome;
  } catch (error) {
    if (!(error instanceof SecondFactorRefused)) throw error;
    await ctx.db.insertInto('loginAttempts').values({ email: passkey.email, ip: request.ip, succeeded: false }).execute();
    await recordAudit(ctx.db, { actorUserId: null, action: 'auth.passkey_sign_in_failed', subjectType: 'user', subjectId: passkey.userId, ip: request.ip, details: { reason: error.reason } });
    throw passkeyRefused(error.reason === 'passkey_counter' ? 'passkey_counter' : 'passkey_invalid');
  }
}

export async function logout(ctx: AppContext, userId: string, sessionId: string, ip: string): Promise<void> {
  await revokeSession(ctx.db, sessionId);
  ctx.callers.forgetSession(sessionId);
  await recordAudit(ctx.db, { actorUserId: userId, action: 'auth.logout', subjectType: 'user', subjectId: userId, ip });
}

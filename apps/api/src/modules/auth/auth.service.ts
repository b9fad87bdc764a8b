import { messages, type LoginBody, type LoginResult } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserByEmail, listUserAccounts } from '../users/users.service.ts';
import { burnVerificationTime, verifySecret } from '../../security/passwords.ts';
import { createSession, revokeSession } from '../sessions/sessions.service.ts';
import { recordActivities } from '../activities/activities.service.ts';
import { recordNotificationEvent } from '../mail/notification-events.ts';
import { deviceCookieFor, type KnownDevice } from './device-cookie.ts';
import { admitLoginAttempt, afterSuccessfulLogin, LOGIN_THROTTLE, type ThrottleKey } from './login-throttle.ts';

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

/** The sign-in throttle keys of an attempt (README, Security; policies in login-throttle.ts). */
function throttleKeys(ctx: AppContext, email: string, ip: string): { owner: ThrottleKey[]; shared: ThrottleKey[] } {
  return {
    // Only this e-mail's attempts from this address fill it: a success (the owner) empties it.
    owner: [{ key: `login:email+ip:${email}|${ip}`, policy: LOGIN_THROTTLE.perEmailAndIp }],
    shared: [
      // The per-e-mail delay holds even with RATE_LIMITS=off (the test suite), as it always has.
      { key: `login:email:${email}`, policy: LOGIN_THROTTLE.perEmail },
      ...(ctx.config.rateLimits ? [{ key: `login:ip:${ip}`, policy: LOGIN_THROTTLE.perIp }] : []),
    ],
  };
}

/** Whether this e-mail has signed in successfully before (read before this sign-in is recorded). */
async function hasSignedInBefore(db: Db, email: string): Promise<boolean> {
  const earlier = await db.selectFrom('loginAttempts').select('id').where('email', '=', email).where('succeeded', '=', true).limit(1).executeTakeFirst();
  return earlier !== undefined;
}

function refused(retryAfterMs: number): AppError {
  const error = tooManyRequests(messages.login.rateLimited, 'login_rate_limited');
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return error;
}

/**
 * Checks the password and opens a session. An unknown e-mail and a wrong password get the
 * same status, body and (roughly) the same time. Every attempt passes the throttle before
 * the (slow) password check: from a device this account signed in from before, only that
 * device's own delay; otherwise the (e-mail, address), e-mail and address delays. A refused
 * attempt answers 429 with Retry-After and is not checked at all.
 */
export async function login(ctx: AppContext, body: LoginBody, request: LoginRequest): Promise<LoginOutcome> {
  const { ip, userAgent, knownDevice } = request;
  const email = body.email.trim().toLowerCase();
  const user = await findUserByEmail(ctx.db, email);
  const deviceKey = user && knownDevice?.userIds.includes(user.id) ? `login:device:${knownDevice.deviceId}|${user.id}` : undefined;
  const keys = throttleKeys(ctx, email, ip);
  const admitted = await admitLoginAttempt(
    ctx.db,
    deviceKey ? [{ key: deviceKey, policy: LOGIN_THROTTLE.perDevice }] : [...keys.owner, ...keys.shared],
  );
  if (!admitted.admitted) throw refused(admitted.retryAfterMs);

  const valid = user ? await verifySecret(user.passwordHash, body.password) : (await burnVerificationTime(body.password), false);
  if (!user || !valid) {
    await ctx.db.insertInto('loginAttempts').values({ email, ip, succeeded: false }).execute();
    throw new AppError(401, 'invalid_credentials', messages.login.invalid);
  }
  if (deviceKey) await afterSuccessfulLogin(ctx.db, [deviceKey], []);
  else await afterSuccessfulLogin(ctx.db, keys.owner.map((entry) => entry.key), keys.shared);

  // The session, its audit entry, the 'Login' activities and the new-device alert commit together or not at all.
  const knownHere = knownDevice?.userIds.includes(user.id) === true;
  const { token, accounts, alerted } = await inTransaction(ctx.db, async (trx) => {
    const opened = await createSession(trx, user.id, ip, userAgent);
    const owned = await listUserAccounts(trx, user.id);
    // A device that does not carry this person's known-device cookie gets an alert by mail, but
    // not the first sign-in of an account (right after sign-up there is no other device to warn).
    const alert = !knownHere && (await hasSignedInBefore(trx, email));
    if (alert) await recordNotificationEvent(trx, { kind: 'new_device_sign_in', subjectId: user.id, detail: { ip, userAgent: userAgent ?? null } });
    await trx.insertInto('loginAttempts').values({ email, ip, succeeded: true }).execute();
    await recordAudit(trx, { actorUserId: user.id, action: 'auth.login', subjectType: 'user', subjectId: user.id, ip });
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

export async function logout(ctx: AppContext, userId: string, sessionId: string, ip: string): Promise<void> {
  await revokeSession(ctx.db, sessionId);
  ctx.callers.forgetSession(sessionId);
  await recordAudit(ctx.db, { actorUserId: userId, action: 'auth.logout', subjectType: 'user', subjectId: userId, ip });
}

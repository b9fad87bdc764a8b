import { messages, type LoginBody, type LoginResult } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserByEmail, listUserAccounts } from '../users/users.repository.ts';
import { burnVerificationTime, verifySecret } from '../../security/passwords.ts';
import { createSession, revokeSession } from '../sessions/sessions.repository.ts';

/** Failed logins allowed per e-mail, and per address, within the window. */
export const LOGIN_LIMITS = { perEmail: 10, perIp: 50, windowMinutes: 15 } as const;

async function assertNotThrottled(ctx: AppContext, email: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - LOGIN_LIMITS.windowMinutes * 60_000);
  const counts = await ctx.db
    .selectFrom('loginAttempts')
    .select([
      (eb) => eb.fn.count<number>('id').filterWhere('email', '=', email).as('byEmail'),
      (eb) => eb.fn.count<number>('id').filterWhere('ip', '=', ip).as('byIp'),
    ])
    .where('succeeded', '=', false)
    .where('attemptedAt', '>', since)
    .where((eb) => eb.or([eb('email', '=', email), eb('ip', '=', ip)]))
    .executeTakeFirstOrThrow();
  const ipLimited = ctx.config.rateLimits && counts.byIp >= LOGIN_LIMITS.perIp;
  if (counts.byEmail >= LOGIN_LIMITS.perEmail || ipLimited) {
    throw tooManyRequests(messages.login.rateLimited, 'login_rate_limited');
  }
}

/**
 * Checks the password and opens a session. An unknown e-mail and a wrong password get
 * the same status, body and (roughly) the same time.
 */
export async function login(ctx: AppContext, body: LoginBody, ip: string, userAgent?: string): Promise<LoginResult> {
  const email = body.email.trim().toLowerCase();
  await assertNotThrottled(ctx, email, ip);
  const user = await findUserByEmail(ctx.db, email);
  const valid = user ? await verifySecret(user.passwordHash, body.password) : (await burnVerificationTime(body.password), false);
  await ctx.db.insertInto('loginAttempts').values({ email, ip, succeeded: valid }).execute();
  if (!user || !valid) throw new AppError(401, 'invalid_credentials', messages.login.invalid);

  const token = await createSession(ctx.db, user.id, ip, userAgent);
  const accounts = await listUserAccounts(ctx.db, user.id);
  await recordAudit(ctx.db, { actorUserId: user.id, action: 'auth.login', subjectType: 'user', subjectId: user.id, ip });
  if (accounts.length > 0) {
    await ctx.db
      .insertInto('activities')
      .values(accounts.map((account) => ({ accountId: account._id, name: 'Login', comment: `Signed in from ${ip}` })))
      .execute();
  }
  return { _id: user.id, token, accounts: accounts.map((account) => account._id) };
}

export async function logout(ctx: AppContext, userId: string, sessionId: string, ip: string): Promise<void> {
  await revokeSession(ctx.db, sessionId);
  await recordAudit(ctx.db, { actorUserId: userId, action: 'auth.logout', subjectType: 'user', subjectId: userId, ip });
}

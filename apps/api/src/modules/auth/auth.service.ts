import { messages, type LoginBody, type LoginResult } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { countersOf, exceeded, type Limit } from '../../http/rate-limit.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserByEmail, listUserAccounts } from '../users/users.repository.ts';
import { burnVerificationTime, verifySecret } from '../../security/passwords.ts';
import { createSession, revokeSession } from '../sessions/sessions.repository.ts';

/**
 * Sign-in budgets (README, Security). Every attempt takes its place in the counts before
 * the password is checked; a sign-in that succeeds gives its place back, so only failures
 * use a budget up. Per (e-mail, address) is the tight one: a guesser is stopped there
 * without locking the owner (who signs in from another address) out. Per e-mail is larger
 * and slower, so guessing spread over many addresses stays bounded; per address stops one
 * address trying many e-mails.
 */
export const LOGIN_LIMITS = {
  perEmailAndIp: { max: 10, windowMinutes: 15 },
  perEmail: { max: 100, windowMinutes: 24 * 60 },
  perIp: { max: 50, windowMinutes: 15 },
} as const;

function loginLimits(ctx: AppContext, email: string, ip: string): Limit[] {
  const limit = (key: string, { max, windowMinutes }: { max: number; windowMinutes: number }) => ({ key, max, windowMs: windowMinutes * 60_000 });
  return [
    // The per-e-mail limits hold even with RATE_LIMITS=off (the test suite), as they always have.
    limit(`login:email+ip:${email}|${ip}`, LOGIN_LIMITS.perEmailAndIp),
    limit(`login:email:${email}`, LOGIN_LIMITS.perEmail),
    ...(ctx.config.rateLimits ? [limit(`login:ip:${ip}`, LOGIN_LIMITS.perIp)] : []),
  ];
}

/**
 * Checks the password and opens a session. An unknown e-mail and a wrong password get
 * the same status, body and (roughly) the same time.
 */
export async function login(ctx: AppContext, body: LoginBody, ip: string, userAgent?: string): Promise<LoginResult> {
  const email = body.email.trim().toLowerCase();
  const limits = loginLimits(ctx, email, ip);
  // Counted atomically before the (slow) password check: a parallel burst cannot all see an old count.
  const hits = await countersOf(ctx).take(limits);
  if (exceeded(limits, hits)) throw tooManyRequests(messages.login.rateLimited, 'login_rate_limited');

  const user = await findUserByEmail(ctx.db, email);
  const valid = user ? await verifySecret(user.passwordHash, body.password) : (await burnVerificationTime(body.password), false);
  if (!user || !valid) {
    await ctx.db.insertInto('loginAttempts').values({ email, ip, succeeded: false }).execute();
    throw new AppError(401, 'invalid_credentials', messages.login.invalid);
  }
  await countersOf(ctx).give(limits.map((limit) => limit.key));

  // The session, its audit entry and the 'Login' activities commit together or not at all.
  const { token, accounts } = await inTransaction(ctx.db, async (trx) => {
    const opened = await createSession(trx, user.id, ip, userAgent);
    const owned = await listUserAccounts(trx, user.id);
    await trx.insertInto('loginAttempts').values({ email, ip, succeeded: true }).execute();
    await recordAudit(trx, { actorUserId: user.id, action: 'auth.login', subjectType: 'user', subjectId: user.id, ip });
    if (owned.length > 0) {
      await trx
        .insertInto('activities')
        .values(owned.map((account) => ({ accountId: account._id, name: 'Login', comment: `Signed in from ${ip}` })))
        .execute();
    }
    return { token: opened, accounts: owned };
  });
  return { _id: user.id, token, accounts: accounts.map((account) => account._id) };
}

export async function logout(ctx: AppContext, userId: string, sessionId: string, ip: string): Promise<void> {
  await revokeSession(ctx.db, sessionId);
  ctx.callers.forgetSession(sessionId);
  await recordAudit(ctx.db, { actorUserId: userId, action: 'auth.logout', subjectType: 'user', subjectId: userId, ip });
}

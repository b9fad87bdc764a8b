import { passkeyMessages } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { verifySecret } from '../../security/passwords.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserById } from '../users/users.service.ts';
import type { Caller } from './devices.service.ts';
import { admitLoginAttempt, afterSuccessfulLogin, passwordThrottleKeys } from './login-throttle.ts';

/*
 * Re-authentication before a second factor is added (issue 25; README, Two-factor sign-in).
 * A session is a bearer token: whoever stole one (with the TPIN) could otherwise set up an
 * authenticator app or a passkey of their own, whose codes then pass step-up and sign in.
 * So turning an app on and adding a passkey ask for the account's current password, checked
 * exactly as the sign-in checks it: the same throttle keys before the check (guesses here and
 * at /login share one count; 429 `login_rate_limited` with Retry-After), the same argon2
 * verify, a failure recorded as a failed login, a success emptying this address's count.
 */
export async function confirmPassword(ctx: AppContext, caller: Caller, password: string, purpose: 'two_factor_setup' | 'two_factor_enable' | 'passkey_add'): Promise<void> {
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw refuse('unauthorized');
  const keys = passwordThrottleKeys(ctx.config.rateLimits, user.email, caller.ip);
  const admitted = await admitLoginAttempt(ctx.db, [...keys.owner, ...keys.shared]);
  if (!admitted.admitted) throw refuse('login_rate_limited', { retryAfterSeconds: Math.max(1, Math.ceil(admitted.retryAfterMs / 1000)) });
  if (!(await verifySecret(user.passwordHash, password))) {
    await ctx.db.insertInto('loginAttempts').values({ email: user.email, ip: caller.ip, succeeded: false }).execute();
    await recordAudit(ctx.db, { actorUserId: caller.userId, action: 'auth.reauthentication_failed', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { for: purpose } });
    throw refuse('password_invalid', { fields: { password: passkeyMessages.passwordWrong } });
  }
  await afterSuccessfulLogin(ctx.db, keys.owner.map((entry) => entry.key), keys.shared);
}

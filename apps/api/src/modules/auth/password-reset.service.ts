import { PASSWORD_RESET_LINK_MINUTES, type ForgotPasswordBody, type ResetPasswordBody } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import { hashSecret } from '../../security/passwords.ts';
import { hashToken, newOpaqueToken } from '../../security/tokens.ts';
import { recordAudit } from '../audit/audit.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { noticeMail } from '../mail/templates.ts';
import { revokeAllSessionsOf } from '../sessions/sessions.service.ts';
import { findUserByEmail, setPasswordHash } from '../users/users.service.ts';
import { admitLoginAttempt, RESET_THROTTLE, type ThrottleKey } from './login-throttle.ts';

/*
 * Password reset (issue 25; README, Forgotten password). A mailed link carries 256 random
 * bits; only their SHA-256 is stored. The link works once, for PASSWORD_RESET_LINK_MINUTES,
 * and using it ends every session of the account.
 */

function refused(retryAfterMs: number): Refusal {
  const error = refuse('password_reset_rate_limited');
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return error;
}

/** Passes the reset throttle (per e-mail always, per address with RATE_LIMITS on) or throws 429. */
async function admit(ctx: AppContext, keys: ThrottleKey[]): Promise<void> {
  const admitted = await admitLoginAttempt(ctx.db, keys);
  if (!admitted.admitted) throw refused(admitted.retryAfterMs);
}

function perAddress(ctx: AppContext, route: string, ip: string): ThrottleKey[] {
  return ctx.config.rateLimits ? [{ key: `${route}:ip:${ip}`, policy: RESET_THROTTLE.perIp }] : [];
}

/**
 * Sends the after-commit part of a staged mail without making the caller wait for it: with
 * SMTP, waiting would make the answer slower exactly when the address has an account.
 */
function deliverLater(ctx: AppContext, deliver: () => Promise<void>): void {
  deliver().catch((error: unknown) => ctx.log.error({ err: error }, 'password reset mail was not sent'));
}

function resetMail(email: string, firstName: string, link: string): MailMessage {
  return noticeMail(
    email,
    {
      subject: 'Reset your Kestrel password',
      headline: 'Choose a new password',
      name: firstName,
      intro: ['Someone (we hope you) asked to reset the password of your Kestrel account. To choose a new password, open this link:'],
      action: { label: 'Choose a new password', url: link },
      outro: [
        `The link works once and expires in ${PASSWORD_RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
      ],
      footer: `You get this because a password reset was asked for ${email} on Kestrel.`,
    },
    { template: 'password_reset' },
  );
}

function changedMail(email: string, firstName: string, loginUrl: string): MailMessage {
  return noticeMail(
    email,
    {
      subject: 'Your Kestrel password was changed',
      headline: 'Your password was changed',
      name: firstName,
      intro: [
        'The password of your Kestrel account was just changed with a reset link, and every device that was signed in has been signed out.',
        // A reset proves the mailbox, not the person: the second factors stay, and the mail says where to review them.
        'Your authenticator app and passkeys were left as they were: review them in My Account → Security, and remove any you do not recognise.',
      ],
      action: { label: 'Sign in with the new password', url: loginUrl },
      outro: ['If this was you, there is nothing else to do.', 'If it was not, reset your password again at once and contact support.'],
      footer: `You get this security notice at the address you sign in with, ${email}. It cannot be switched off.`,
    },
    { template: 'password_changed' },
  );
}

/**
 * POST /auth/forgot-password. The answer is the same whether or not the address has an
 * account: both paths pass the same throttle and write in one transaction (the link and its
 * mail, or an audit entry), and the mail leaves after commit without being waited for.
 */
export async function requestPasswordReset(ctx: AppContext, body: ForgotPasswordBody, ip: string): Promise<void> {
  const email = body.email;
  await admit(ctx, [{ key: `reset:email:${email}`, policy: RESET_THROTTLE.perEmail }, ...perAddress(ctx, 'reset', ip)]);
  const user = await findUserByEmail(ctx.db, email);
  const token = newOpaqueToken();
  const tokenHash = hashToken(token);
  if (!user) {
    await recordAudit(ctx.db, { actorUserId: null, action: 'auth.password_reset_unknown_email', ip });
    return;
  }
  const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const deliver = await inTransaction(ctx.db, async (trx) => {
    await trx
      .insertInto('passwordResetTokens')
      .values({ userId: user.id, tokenHash, expiresAt: new Date(Date.now() + PASSWORD_RESET_LINK_MINUTES * 60_000), usedAt: null })
      .execute();
    await recordAudit(trx, { actorUserId: null, action: 'auth.password_reset_requested', subjectType: 'user', subjectId: user.id, ip });
    return ctx.mailer.stage(trx, resetMail(user.email, user.firstName, link));
  });
  deliverLater(ctx, deliver);
}

/**
 * POST /auth/reset-password. Spends the link (400 when unknown, used or expired), sets the
 * new password, spends the account's other links, ends every session of the account and
 * writes the "password changed" mail, all in one transaction.
 */
export async function resetPassword(ctx: AppContext, body: ResetPasswordBody, ip: string): Promise<void> {
  await admit(ctx, perAddress(ctx, 'reset-token', ip));
  // The slow hash is made before the transaction, so no connection waits on it.
  const passwordHash = await hashSecret(body.password);
  const { ended, deliver } = await inTransaction(ctx.db, async (trx) => {
    const now = new Date();
    const spent = await trx
      .updateTable('passwordResetTokens')
      .set({ usedAt: now })
      .where('tokenHash', '=', hashToken(body.token))
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .returning(['userId'])
      .executeTakeFirst();
    if (!spent) throw refuse('password_reset_link_invalid');
    const user = await setPasswordHash(trx, spent.userId, passwordHash, now);
    await trx.updateTable('passwordResetTokens').set({ usedAt: now }).where('userId', '=', user.id).where('usedAt', 'is', null).execute();
    const ended = await revokeAllSessionsOf(trx, user.id, now);
    await recordAudit(trx, { actorUserId: user.id, action: 'auth.password_reset', subjectType: 'user', subjectId: user.id, ip, details: { sessionsEnded: ended.length } });
    const staged = await ctx.mailer.stage(trx, changedMail(user.email, user.firstName, `${ctx.config.publicUrl}/login`));
    return { ended, deliver: staged };
  });
  for (const sessionId of ended) ctx.callers.forgetSession(sessionId);
  deliverLater(ctx, deliver);
}

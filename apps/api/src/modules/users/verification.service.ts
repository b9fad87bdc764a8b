
import type { AppContext } from '../../context.ts';
import { hashToken, newOpaqueToken } from '../../security/tokens.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { noticeMail } from '../mail/templates.ts';

export const VERIFICATION_LINK_HOURS = 24;

/** Issues a single-use link that expires, and mails it. Throws when the mail cannot be sent. */
export async function sendVerificationMail(ctx: AppContext, user: { id: string; email: string; firstName: string }): Promise<void> {
  const token = newOpaqueToken();
  await ctx.db
    .insertInto('emailVerificationTokens')
    .values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + VERIFICATION_LINK_HOURS * 3600_000),
      usedAt: null,
    })
    .execute();
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send(
    noticeMail(
      user.email,
      {
        subject: 'Verify your Kestrel e-mail address',
        headline: 'Confirm your e-mail address',
        name: user.firstName,
        intro: ['Please confirm your e-mail address for Kestrel by opening this link:'],
        action: { label: 'Confirm my e-mail address', url: link },
        outro: [`The link works once and expires in ${VERIFICATION_LINK_HOURS} hours. If you did not sign up for Kestrel, you can ignore this mail.`],
        footer: `You get this because ${user.email} was used to sign up for Kestrel.`,
      },
      { template: 'verify_email' },
    ),
  );
}

/** Marks the e-mail verified if the token is known, unused and not expired; the token is spent. */
export async function verifyEmailToken(ctx: AppContext, token: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('emailVerificationTokens')
      .set({ usedAt: new Date() })
      .where('tokenHash', '=', hashToken(token))
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', new Date())
      .returning(['userId'])
      .executeTakeFirst();
    if (!row) throw refuse('verification_link_invalid');
    await trx.updateTable('users').set({ isEmailVerified: true, updatedAt: new Date() }).where('id', '=', row.userId).execute();
    await recordAudit(trx, { actorUserId: row.userId, action: 'user.email_verified', subjectType: 'user', subjectId: row.userId });
  });
}

import { messages, type RegisterBody, type UserProfile } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { hashSecret } from '../../security/passwords.ts';
import { createSession } from '../sessions/sessions.service.ts';
import { findUserById, listUserAccounts } from './users.repository.ts';
import { sendVerificationMail } from './verification.service.ts';

// Other modules write and read this module's tables through these (lint keeps them out of
// its repository).
export {
  findOperatorFlagByEmail,
  findUserByEmail,
  findUserById,
  hasNonOperatorUsers,
  insertUser,
  issuerOf,
  listUserAccounts,
  lockUserRow,
  markOperator,
  searchGateOf,
  setPasswordHash,
  userNameOf,
  usersForNotice,
} from './users.repository.ts';

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === constraint;
}

export interface Registration {
  userId: string;
  token: string;
  mailSent: boolean;
}

/**
 * Creates the user and signs them in. The verification mail is sent after the commit;
 * if it fails the user still exists and can ask for another from the portal.
 */
export async function registerUser(ctx: AppContext, body: RegisterBody, ip: string, userAgent?: string): Promise<Registration> {
  const passwordHash = await hashSecret(body.password);
  let userId: string;
  try {
    userId = await ctx.db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          firstName: body.firstName,
          lastName: body.lastName,
          email: body.email,
          contactNumber: body.contactNumber,
          passwordHash,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, { actorUserId: user.id, action: 'user.registered', subjectType: 'user', subjectId: user.id, ip });
      return user.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw refuse('email_taken', { fields: { email: messages.signup.emailTaken } });
    if (isUniqueViolation(error, 'users_contact_number_key'))
      throw refuse('phone_taken', { fields: { contactNumber: messages.signup.phoneTaken } });
    throw error;
  }
  const token = await createSession(ctx.db, userId, ip, userAgent);
  let mailSent = true;
  try {
    await sendVerificationMail(ctx, { id: userId, email: body.email, firstName: body.firstName });
  } catch (error) {
    mailSent = false;
    ctx.log.warn({ err: error, userId }, 'verification mail failed at sign-up');
  }
  return { userId, token, mailSent };
}

/** GET /v1/user/:userId — only the caller themself; anyone else is told it does not exist. */
export async function getUserProfile(ctx: AppContext, callerId: string, userId: string): Promise<UserProfile> {
  if (callerId !== userId) throw refuse('not_found', { message: 'User not found' });
  const user = await findUserById(ctx.db, userId);
  if (!user) throw refuse('not_found', { message: 'User not found' });
  const accounts = await listUserAccounts(ctx.db, userId);
  return {
    _id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    contactNumber: user.contactNumber,
    isEmailVerified: user.isEmailVerified,
    isAccountHolder: accounts.length > 0,
    isOperator: user.isOperator,
    accounts,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * POST /v1/user/send-verification-code. Signed-in users may only ask for their own address.
 * Already-verified users are told so rather than mailed again.
 */
export async function resendVerification(ctx: AppContext, callerId: string, email: string): Promise<void> {
  const user = await findUserById(ctx.db, callerId);
  if (!user || user.email !== email) throw refuse('not_found', { message: 'No unverified user with that e-mail' });
  if (user.isEmailVerified) throw refuse('already_verified');
  await sendVerificationMail(ctx, user);
}

import { createHash, createHmac, hkdfSync, randomInt } from 'node:crypto';
import {
  STEP_UP_CODE_DIGITS,
  STEP_UP_CODE_MAX_ATTEMPTS,
  STEP_UP_CODE_MINUTES,
  STEP_UP_CODES_PER_HOUR,
  STEP_UP_INVALID,
  STEP_UP_REQUIRED,
  stepUpMessages,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import { noticeMail } from '../mail/templates.ts';
import { findUserById } from '../users/users.service.ts';
import { admitCodeCheck, totpEnabledFor } from './two-factor.service.ts';
import { type StepUpArgs, type StepUpKind } from '../ledger/step-up-kinds.ts';
import { looksLikeTotpCode, openTotpSecret, recoveryCodeHash, totpStepOf } from './two-factor-secrets.ts';

/*
 * Step-up for large movements (issue 25; README, Security). The check itself lives in the
 * database, in the same call as the money (db/functions/step_up_check.sql, called by
 * ledger_transfer, withdrawal_request and collect_post): an account's outgoing wallet
 * movements made on the TPIN alone may add up to its threshold (STEP_UP_THRESHOLD_CENTS by
 * default) over a rolling 24 hours; past it the movement needs a second factor, spent in that
 * call. This module makes the call's `p_step_up` argument from the request's `stepUpCode`
 * (an app code is matched to its 30-second step here, against the sealed secret, so the key
 * never enters the database), maps the call's step_up_* kinds to the 403 answers, and mails a
 * one-time code when 2FA is off.
 */

/** What a movement is, for its step-up: who moves, from which account (when known), and what the mail says it is. */
export interface StepUpMovement {
  userId: string;
  ip: string;
  /** A digest of the movement (kind, accounts, amount): a mailed code is good for this movement only. */
  binding: string;
  /** "a transfer of USD 1,500.00 to alice", for the mail. */
  summary: string;
}

/** The binding of a movement: the same parts make the same digest. */
export function stepUpBinding(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex');
}

const keys = new Map<string, Buffer>();
function mailCodeKey(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, 'kestrel-step-up', 'mail-codes-v1', 32));
    keys.set(secretKey, key);
  }
  return key;
}

/** The stored form of a mailed code (spaces do not matter when typing it). */
export function mailCodeHash(secretKey: string, code: string): string {
  return createHmac('sha256', mailCodeKey(secretKey)).update(code.replace(/\s/g, '')).digest('hex');
}

export interface PreparedStepUp {
  args: StepUpArgs;
  /** After the movement went through: a checked app code clears the second-factor throttle. */
  accepted(): Promise<void>;
}

/**
 * The call's argument for a request's code (or none). With 2FA on, a code is a second-factor
 * try (counted by the sign-in's throttle: 429 when there were too many) and an app code is
 * matched to its step here; with 2FA off it is taken as a mailed code. The database decides
 * again whether 2FA is on, and whether a step-up is needed at all.
 */
export async function prepareStepUp(ctx: AppContext, movement: StepUpMovement, code: string | undefined): Promise<PreparedStepUp> {
  const args: StepUpArgs = { binding: movement.binding, given: false, totpStep: null, recoveryHash: null, mailHash: null, maxAttempts: STEP_UP_CODE_MAX_ATTEMPTS };
  const none = { args, accepted: async () => {} };
  if (code === undefined || code.trim() === '') return none;
  args.given = true;
  const secretKey = ctx.config.secretKey;
  // The database takes an app code only from a person with an authenticator app (step_up_check.sql);
  // anyone else, a person whose second factor is a passkey alone included, is mailed a code.
  if (!(await totpEnabledFor(ctx.db, movement.userId))) {
    args.mailHash = mailCodeHash(secretKey, code);
    return none;
  }
  const check = await admitCodeCheck(ctx, movement.userId, movement.ip);
  if (looksLikeTotpCode(code)) {
    const row = await ctx.db.selectFrom('userTotp').select('secretSealed').where('userId', '=', movement.userId).executeTakeFirst();
    args.totpStep = row ? totpStepOf(openTotpSecret(secretKey, row.secretSealed), code) : null;
  } else {
    args.recoveryHash = recoveryCodeHash(secretKey, code);
  }
  return { args, accepted: check.accepted };
}

/**
 * The 403 a step-up refusal answers (never stored as the Idempotency-Key's answer: the same
 * request with its code goes through). When 2FA is off and a new code is due (none given, the
 * last one spent, expired or out of tries, or sent for another movement) it is mailed first.
 */
export async function stepUpRefusal(ctx: AppContext, movement: StepUpMovement, accountId: string, kind: StepUpKind, remaining: number | null): Promise<Refusal> {
  const stepUp = (code: typeof STEP_UP_REQUIRED | typeof STEP_UP_INVALID, message: string) => refuse(code, { message, ...(code === STEP_UP_INVALID ? { fields: { stepUpCode: message } } : {}) });
  switch (kind) {
    case 'step_up_required_app':
      return stepUp(STEP_UP_REQUIRED, stepUpMessages.requiredApp);
    case 'step_up_invalid_app':
      return stepUp(STEP_UP_INVALID, stepUpMessages.invalidApp);
    case 'step_up_reused_app':
      return stepUp(STEP_UP_INVALID, stepUpMessages.reusedApp);
    case 'step_up_invalid_email':
      return stepUp(STEP_UP_INVALID, stepUpMessages.invalidEmail(Math.max(1, remaining ?? 1)));
    case 'step_up_required_email':
      await mailStepUpCode(ctx, movement, accountId);
      return stepUp(STEP_UP_REQUIRED, stepUpMessages.requiredEmail);
    case 'step_up_expired_email':
      await mailStepUpCode(ctx, movement, accountId);
      return stepUp(STEP_UP_INVALID, stepUpMessages.expiredEmail);
    case 'step_up_too_many_email':
      await mailStepUpCode(ctx, movement, accountId);
      return stepUp(STEP_UP_INVALID, stepUpMessages.tooManyEmail);
  }
}

/** A new 6-digit code. */
function newMailCode(): string {
  return String(randomInt(0, 10 ** STEP_UP_CODE_DIGITS)).padStart(STEP_UP_CODE_DIGITS, '0');
}

/**
 * Mails a one-time code for this movement to the person's e-mail (plain text and HTML, through
 * the outbox, sent after commit): at most STEP_UP_CODES_PER_HOUR an hour a person (429 past
 * it), so five tries a code cannot become a guessing run. The new code is the account's
 * newest, so any earlier one stops counting.
 */
export async function mailStepUpCode(ctx: AppContext, movement: StepUpMovement, accountId: string): Promise<void> {
  const code = newMailCode();
  const deliver = await inTransaction(ctx.db, async (trx) => {
    const since = new Date(Date.now() - 60 * 60 * 1000);
    const sent = await trx
      .selectFrom('stepUpCodes')
      .select((eb) => eb.fn.countAll<string>().as('sent'))
      .where('userId', '=', movement.userId)
      .where('createdAt', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(sent.sent) >= STEP_UP_CODES_PER_HOUR) {
      throw refuse('step_up_rate_limited', { retryAfterSeconds: 60 * 60 });
    }
    const user = await findUserById(trx, movement.userId);
    if (!user) throw refuse('unauthorized');
    await trx
      .insertInto('stepUpCodes')
      .values({
        userId: movement.userId,
        accountId,
        codeHash: mailCodeHash(ctx.config.secretKey, code),
        binding: movement.binding,
        expiresAt: new Date(Date.now() + STEP_UP_CODE_MINUTES * 60 * 1000),
      })
      .execute();
    return ctx.mailer.stage(
      trx,
      noticeMail(
        user.email,
        {
          subject: `${code} is your Kestrel verification code`,
          headline: `Your verification code: ${code}`,
          name: user.firstName,
          intro: [
            `Enter this code in Kestrel to confirm ${movement.summary}.`,
            `It works once, for this movement only, within ${STEP_UP_CODE_MINUTES} minutes.`,
          ],
          outro: [
            'Never share this code: Kestrel staff will never ask for it.',
            'If you did not try to move this money, someone may know your password and TPIN: change both at once, and turn on two-factor sign-in in My Account → Security.',
          ],
          footer: `You get this security code at the address you sign in with, ${user.email}. It cannot be switched off.`,
          sms: `Your verification code is ${code}, for ${movement.summary}. Never share it.`,
        },
        { template: 'step_up_code' },
      ),
    );
  });
  deliver().catch((error: unknown) => ctx.log.error({ err: error }, 'step-up code mail was not sent'));
}

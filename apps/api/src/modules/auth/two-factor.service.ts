import { passkeyMessages, twoFactorMessages, type TwoFactorCodeBody, type TwoFactorEnableBody, type TwoFactorEnabled, type TwoFactorSetup, type TwoFactorSetupBody, type TwoFactorStatus } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { refuse, type RefusalCode } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { noticeMail } from '../mail/templates.ts';
import { findUserById } from '../users/users.service.ts';
import type { Caller } from './devices.service.ts';
import { admitLoginAttempt, afterSuccessfulLogin, SECOND_FACTOR_THROTTLE, type ThrottleKey } from './login-throttle.ts';
import { confirmPassword } from './reauthentication.ts';
import { looksLikeTotpCode, newRecoveryCodes, newTotpSecret, openTotpSecret, recoveryCodeHash, sealTotpSecret, totpStepOf } from './two-factor-secrets.ts';

/*
 * Two-factor sign-in with an authenticator app (issue 25; README, Two-factor sign-in):
 * My Account → Security starts it (a sealed secret, off), a code from the app turns it on
 * (and makes ten recovery codes, shown once), a current code (app or recovery) turns it off.
 * Starting and turning on also ask for the account's password (reauthentication.ts): a
 * stolen session must not add the thief's app, whose codes would pass step-up.
 * The login's second step (auth.service.ts) checks its code with `spendSecondFactor` too.
 */

const m = twoFactorMessages;

/** Why a code (or a passkey's assertion) was refused; the caller decides the status (401 at sign-in, 400 when signed in). */
export type CodeRefusal = 'wrong' | 'reused' | 'recovery_wrong' | 'passkey_invalid' | 'passkey_counter';

export class SecondFactorRefused extends Error {
  constructor(readonly reason: CodeRefusal) {
    super(`second factor refused: ${reason}`);
  }
}

export const refusalMessage: Record<CodeRefusal, string> = {
  wrong: m.codeInvalid,
  reused: m.codeReused,
  recovery_wrong: m.recoveryCodeInvalid,
  passkey_invalid: passkeyMessages.signInFailed,
  passkey_counter: passkeyMessages.counterStale,
};
/** The refusal when signed in (a field error) and at sign-in (the sign-in fails): the same code on the wire, another status. */
export const refusalCode = {
  wrong: 'second_factor_invalid',
  reused: 'second_factor_reused',
  recovery_wrong: 'recovery_code_invalid',
  // Signed in, a passkey is never the second factor asked for (removing one takes a code or the password).
  passkey_invalid: 'passkey_invalid',
  passkey_counter: 'passkey_invalid',
} as const satisfies Record<CodeRefusal, RefusalCode>;
export const signInRefusalCode = {
  wrong: 'login_second_factor_invalid',
  reused: 'login_second_factor_reused',
  recovery_wrong: 'login_recovery_code_invalid',
  passkey_invalid: 'login_passkey_invalid',
  passkey_counter: 'login_passkey_counter_stale',
} as const satisfies Record<CodeRefusal, RefusalCode>;

/** Whether this person has a confirmed authenticator app. */
export async function totpEnabledFor(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('userTotp').select('userId').where('userId', '=', userId).where('enabledAt', 'is not', null).executeTakeFirst();
  return row !== undefined;
}

/** Whether a person has two-factor sign-in on: a confirmed authenticator app or a passkey (a second factor exists). */
export async function twoFactorEnabledFor(db: Db, userId: string): Promise<boolean> {
  if (await totpEnabledFor(db, userId)) return true;
  const passkey = await db.selectFrom('passkeys').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
  return passkey !== undefined;
}

function throttleKeys(userId: string, ip: string): { owner: ThrottleKey[]; shared: ThrottleKey[] } {
  return {
    owner: [{ key: `second-factor:user+ip:${userId}|${ip}`, policy: SECOND_FACTOR_THROTTLE.perUserAndIp }],
    shared: [{ key: `second-factor:user:${userId}`, policy: SECOND_FACTOR_THROTTLE.perUser }],
  };
}

/** Counts a code check before it is made (429 when the person must wait); `accepted` gives it back. */
export async function admitCodeCheck(ctx: AppContext, userId: string, ip: string): Promise<{ accepted: () => Promise<void> }> {
  const keys = throttleKeys(userId, ip);
  const admitted = await admitLoginAttempt(ctx.db, [...keys.owner, ...keys.shared]);
  if (!admitted.admitted) {
    const error = refuse('second_factor_rate_limited');
    error.retryAfterSeconds = Math.max(1, Math.ceil(admitted.retryAfterMs / 1000));
    throw error;
  }
  return { accepted: () => afterSuccessfulLogin(ctx.db, keys.owner.map((entry) => entry.key), keys.shared) };
}

/**
 * Inside the caller's transaction: takes a code of a person with 2FA on, and spends it — an
 * app code's step becomes the last used one (a code for that step or an earlier one is
 * refused from then on: no replay within its window), a recovery code is marked used. Throws
 * SecondFactorRefused; the caller rolls back and counts the failure.
 */
export async function spendSecondFactor(trx: Db, secretKey: string, userId: string, code: string, allowRecovery = true): Promise<'totp' | 'recovery_code'> {
  if (looksLikeTotpCode(code)) {
    const row = await trx.selectFrom('userTotp').select('secretSealed').where('userId', '=', userId).forUpdate().executeTakeFirst();
    const step = row ? totpStepOf(openTotpSecret(secretKey, row.secretSealed), code) : null;
    if (step === null) throw new SecondFactorRefused('wrong');
    const spent = await trx
      .updateTable('userTotp')
      .set({ lastUsedStep: step })
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
      .returning('userId')
      .executeTakeFirst();
    if (!spent) throw new SecondFactorRefused('reused');
    return 'totp';
  }
  if (!allowRecovery) throw new SecondFactorRefused('wrong');
  const used = await trx
    .updateTable('recoveryCodes')
    .set({ usedAt: new Date() })
    .where('userId', '=', userId)
    .where('codeHash', '=', recoveryCodeHash(secretKey, code))
    .where('usedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) throw new SecondFactorRefused('recovery_wrong');
  return 'recovery_code';
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recoveryCodes')
    .select((eb) => eb.fn.countAll<string>().as('left'))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/** Sends a staged mail after commit without making the answer wait for it. */
function deliverLater(ctx: AppContext, deliver: () => Promise<void>): void {
  deliver().catch((error: unknown) => ctx.log.error({ err: error }, 'two-factor mail was not sent'));
}

/**
 * What a change of second factors leaves: an app turned on; the app turned off while passkeys
 * remain (two-factor sign-in stays on with them); or no second factor left (the app turned off,
 * or the last passkey removed with no app), when the password alone signs in.
 */
export type TwoFactorChange = 'on' | 'app_off_passkeys_left' | 'off_app' | 'off_last_passkey';

const changedText: Record<TwoFactorChange, { subject: string; headline: string; intro: string }> = {
  on: {
    subject: 'Two-factor sign-in is on for your Kestrel account',
    headline: 'Two-factor sign-in is on',
    intro: 'From now on, logging in to Kestrel asks for a code from your authenticator app after your password. Keep your recovery codes somewhere safe.',
  },
  app_off_passkeys_left: {
    subject: 'Your authenticator app was turned off for your Kestrel account',
    headline: 'Authenticator app turned off',
    intro:
      'Logging in to Kestrel no longer asks for a code from your authenticator app, and your recovery codes no longer work. Two-factor sign-in stays on with your passkeys: after your password, one of them answers the second step.',
  },
  off_app: {
    subject: 'Two-factor sign-in was turned off for your Kestrel account',
    headline: 'Two-factor sign-in is off',
    intro: 'Logging in to Kestrel no longer asks for a code from your authenticator app: your password alone signs you in.',
  },
  off_last_passkey: {
    subject: 'Two-factor sign-in was turned off for your Kestrel account',
    headline: 'Two-factor sign-in is off',
    intro: 'Your last passkey was removed, so logging in to Kestrel no longer asks for a second step after your password: your password alone signs you in.',
  },
};

/** The security mail of a change of second factors (its words true to what is left: see TwoFactorChange). */
export function changedMail(email: string, firstName: string, change: TwoFactorChange, securityUrl: string): MailMessage {
  const text = changedText[change];
  return noticeMail(
    email,
    {
      subject: text.subject,
      headline: text.headline,
      name: firstName,
      intro: [text.intro],
      action: { label: 'Open My Account → Security', url: securityUrl },
      outro: ['If this was you, there is nothing else to do.', 'If it was not, reset your password at once and contact support.'],
      footer: `You get this security notice at the address you sign in with, ${email}. It cannot be switched off.`,
    },
    { template: change === 'on' ? 'two_factor_enabled' : 'two_factor_disabled' },
  );
}

function renewedMail(email: string, firstName: string, securityUrl: string): MailMessage {
  return noticeMail(
    email,
    {
      subject: 'New recovery codes for your Kestrel account',
      headline: 'New recovery codes',
      name: firstName,
      intro: ['Ten new recovery codes were made for your Kestrel account. The codes you had before no longer work.'],
      action: { label: 'Open My Account → Security', url: securityUrl },
      outro: ['If this was you, keep the new codes somewhere safe.', 'If it was not, reset your password at once and contact support.'],
      footer: `You get this security notice at the address you sign in with, ${email}. It cannot be switched off.`,
    },
    { template: 'recovery_codes_renewed' },
  );
}

export async function twoFactorStatus(ctx: AppContext, caller: Caller): Promise<TwoFactorStatus> {
  const enabled = await totpEnabledFor(ctx.db, caller.userId);
  return { enabled, recoveryCodesLeft: enabled ? await recoveryCodesLeft(ctx.db, caller.userId) : 0 };
}

/**
 * Starts (or starts again) setting up an app, with the account's password: a new sealed
 * secret, off until a code confirms it. 409 when already on.
 */
export async function startTwoFactorSetup(ctx: AppContext, caller: Caller, body: TwoFactorSetupBody): Promise<TwoFactorSetup> {
  if (await totpEnabledFor(ctx.db, caller.userId)) throw refuse('two_factor_already_on');
  await confirmPassword(ctx, caller, body.password, 'two_factor_setup');
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw refuse('unauthorized');
  const setup = newTotpSecret(user.email);
  const secretSealed = sealTotpSecret(ctx.config.secretKey, setup.secret);
  const stored = await ctx.db
    .insertInto('userTotp')
    .values({ userId: caller.userId, secretSealed })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ secretSealed, createdAt: new Date(), lastUsedStep: null }).where('userTotp.enabledAt', 'is', null))
    .returning('userId')
    .executeTakeFirst();
  if (!stored) throw refuse('two_factor_already_on');
  return setup;
}

/**
 * A change of the Security tab that a current code confirms: the code check admitted by the
 * throttle, `change` in one transaction (it spends the code and answers the staged mail), a
 * refused code as the 400 under the code field; after commit the throttle is cleared for the
 * right code and the mail sent.
 */
async function confirmedByCode(ctx: AppContext, caller: Caller, change: (trx: Trx) => Promise<() => Promise<void>>): Promise<void> {
  const check = await admitCodeCheck(ctx, caller.userId, caller.ip);
  let deliver: () => Promise<void>;
  try {
    deliver = await inTransaction(ctx.db, change);
  } catch (error) {
    if (error instanceof SecondFactorRefused) throw refuse(refusalCode[error.reason], { message: refusalMessage[error.reason], fields: { code: refusalMessage[error.reason] } });
    throw error;
  }
  await check.accepted();
  deliverLater(ctx, deliver);
}

/** The person's recovery codes replaced by ten new ones (only their keyed hashes are kept), answered to be shown once. */
async function replaceRecoveryCodes(trx: Trx, secretKey: string, userId: string): Promise<string[]> {
  const recoveryCodes = newRecoveryCodes();
  await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  await trx
    .insertInto('recoveryCodes')
    .values(recoveryCodes.map((code) => ({ userId, codeHash: recoveryCodeHash(secretKey, code) })))
    .execute();
  return recoveryCodes;
}

/** The audit entry of a Security tab change and its staged security mail. */
async function auditedAndMailed(ctx: AppContext, trx: Trx, caller: Caller, action: string, mail: (email: string, firstName: string, securityUrl: string) => MailMessage, details?: Record<string, unknown>) {
  await recordAudit(trx, { actorUserId: caller.userId, action, subjectType: 'user', subjectId: caller.userId, ip: caller.ip, ...(details ? { details } : {}) });
  const user = await findUserById(trx, caller.userId);
  if (!user) throw refuse('unauthorized');
  return ctx.mailer.stage(trx, mail(user.email, user.firstName, `${ctx.config.publicUrl}/my-account`));
}

/**
 * Turns the app on with a code from it (the step is spent, so that code cannot sign in) and
 * the account's password again (a setup started before the password was asked for, or by
 * someone else, is not turned on without it), and makes ten new recovery codes, answered this
 * once; audited and mailed.
 */
export async function enableTwoFactor(ctx: AppContext, caller: Caller, body: TwoFactorEnableBody): Promise<TwoFactorEnabled> {
  const row = await ctx.db.selectFrom('userTotp').select(['enabledAt']).where('userId', '=', caller.userId).executeTakeFirst();
  if (!row) throw refuse('two_factor_not_started');
  if (row.enabledAt) throw refuse('two_factor_already_on');
  await confirmPassword(ctx, caller, body.password, 'two_factor_enable');
  let recoveryCodes: string[] = [];
  await confirmedByCode(ctx, caller, async (trx) => {
    // Only an app code turns it on (a recovery code of an earlier set must not).
    await spendSecondFactor(trx, ctx.config.secretKey, caller.userId, body.code, false);
    const turnedOn = await trx.updateTable('userTotp').set({ enabledAt: new Date() }).where('userId', '=', caller.userId).where('enabledAt', 'is', null).returning('userId').executeTakeFirst();
    if (!turnedOn) throw refuse('two_factor_already_on');
    recoveryCodes = await replaceRecoveryCodes(trx, ctx.config.secretKey, caller.userId);
    return auditedAndMailed(ctx, trx, caller, 'auth.two_factor_enabled', (email, firstName, url) => changedMail(email, firstName, 'on', url));
  });
  return { recoveryCodes };
}

/**
 * Ten new recovery codes for a person whose app is on (the old ones stop working), with a
 * current code from the app — not a recovery code, so one leaked code cannot make a new set;
 * answered this once; audited and mailed.
 */
export async function renewRecoveryCodes(ctx: AppContext, caller: Caller, body: TwoFactorCodeBody): Promise<TwoFactorEnabled> {
  if (!(await totpEnabledFor(ctx.db, caller.userId))) throw refuse('two_factor_not_on');
  let recoveryCodes: string[] = [];
  await confirmedByCode(ctx, caller, async (trx) => {
    await spendSecondFactor(trx, ctx.config.secretKey, caller.userId, body.code, false);
    recoveryCodes = await replaceRecoveryCodes(trx, ctx.config.secretKey, caller.userId);
    return auditedAndMailed(ctx, trx, caller, 'auth.recovery_codes_renewed', renewedMail);
  });
  return { recoveryCodes };
}

/**
 * Turns the app off with a current code (the app's or a recovery code); the secret and the
 * codes are deleted; audited and mailed — the mail says whether passkeys still answer the
 * second step or the password alone signs in now.
 */
export async function disableTwoFactor(ctx: AppContext, caller: Caller, body: TwoFactorCodeBody): Promise<void> {
  if (!(await totpEnabledFor(ctx.db, caller.userId))) throw refuse('two_factor_not_on');
  await confirmedByCode(ctx, caller, async (trx) => {
    const used = await spendSecondFactor(trx, ctx.config.secretKey, caller.userId, body.code);
    if (used === 'recovery_code') {
      await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.recovery_code_used', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { for: 'two_factor_disable' } });
    }
    await trx.deleteFrom('recoveryCodes').where('userId', '=', caller.userId).execute();
    await trx.deleteFrom('userTotp').where('userId', '=', caller.userId).execute();
    await trx.deleteFrom('loginChallenges').where('userId', '=', caller.userId).execute();
    const passkeyLeft = await trx.selectFrom('passkeys').select('id').where('userId', '=', caller.userId).limit(1).executeTakeFirst();
    const change = passkeyLeft ? 'app_off_passkeys_left' : 'off_app';
    return auditedAndMailed(ctx, trx, caller, 'auth.two_factor_disabled', (email, firstName, url) => changedMail(email, firstName, change, url), { with: used });
  });
}

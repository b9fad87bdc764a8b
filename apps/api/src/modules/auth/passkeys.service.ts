import { randomBytes } from 'node:crypto';
import {
  PASSKEY_CHALLENGE_MINUTES,
  PASSKEY_MAX_PER_USER,
  PRODUCT_NAME,
  passkeyMessages,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyList,
  type PasskeyOptionsBody,
  type PasskeyRegisterBody,
  type PasskeyRemoveBody,
  type PasskeyRenameBody,
  type PasskeyRequestOptions,
  type PasskeyView,
} from '@kestrel/shared';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { hashToken } from '../../security/tokens.ts';
import { recordAudit } from '../audit/audit.ts';
import { passkeyMail } from './passkey-mails.ts';
import { findUserById } from '../users/users.service.ts';
import type { Caller } from './devices.service.ts';
import { admitLoginAttempt, LOGIN_THROTTLE } from './login-throttle.ts';
import { confirmPassword } from './reauthentication.ts';
import { admitCodeCheck, changedMail as twoFactorChangedMail, refusalCode, refusalMessage, SecondFactorRefused, spendSecondFactor, totpEnabledFor } from './two-factor.service.ts';

/*
 * Passkeys (WebAuthn; issue 25; README, Passkeys), on @simplewebauthn/server. A person adds
 * passkeys from My Account → Security; a passkey signs in without the password (a discoverable
 * credential: the browser offers the passkeys it holds for this site) and answers the second
 * step after the password. Every ceremony's challenge is 256 random bits made here, kept only
 * as its SHA-256 with its purpose, its person and a short life; the first answer that names it
 * spends it, whatever the outcome, so no challenge is ever taken twice. The relying party is
 * the configured public URL: its host name is the rpID, its origin the only one accepted.
 */

const m = passkeyMessages;

/** Which ceremony a challenge is for; `confirm` is a signed-in person confirming a change (removing a passkey) with one. */
export type PasskeyPurpose = 'register' | 'sign_in' | 'second_step' | 'confirm';

interface RelyingParty {
  rpID: string;
  origin: string;
}

function relyingParty(ctx: AppContext): RelyingParty {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const challengeRefused = () => refuse('passkey_challenge_invalid');

/** The WebAuthn user handle of a person: their id's bytes (no e-mail or name in it). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);

/** Records a new challenge (its digest) for one ceremony; expired ones are swept on the way. */
async function rememberChallenge(db: Db, challenge: string, purpose: PasskeyPurpose, userId: string | null, loginChallengeId: string | null = null): Promise<void> {
  await db.deleteFrom('webauthnChallenges').where('expiresAt', '<', new Date(Date.now() - 60 * 60_000)).execute();
  await db
    .insertInto('webauthnChallenges')
    .values({ purpose, userId, loginChallengeId, challengeHash: hashToken(challenge), expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_MINUTES * 60_000) })
    .execute();
}

/** The challenge a browser signed, read from its client data (undefined when it is not there). */
function signedChallenge(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    if (parsed && typeof parsed === 'object' && 'challenge' in parsed && typeof parsed.challenge === 'string') return parsed.challenge;
  } catch {
    // Not JSON: no challenge.
  }
  return undefined;
}

export interface SpentChallenge {
  challenge: string;
  userId: string | null;
  loginChallengeId: string | null;
}

/**
 * Spends the challenge a browser's answer signed, for this purpose (and person, when given):
 * live, unused, then used at once and for good, before the answer is checked. Undefined when
 * there is no such live challenge (unknown, another ceremony's, used, expired).
 */
export async function spendChallenge(db: Db, clientDataJSON: string, purpose: PasskeyPurpose, userId?: string): Promise<SpentChallenge | undefined> {
  const challenge = signedChallenge(clientDataJSON);
  if (!challenge) return undefined;
  let query = db
    .updateTable('webauthnChallenges')
    .set({ usedAt: new Date() })
    .where('challengeHash', '=', hashToken(challenge))
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', new Date());
  if (userId !== undefined) query = query.where('userId', '=', userId);
  const spent = await query.returning(['userId', 'loginChallengeId']).executeTakeFirst();
  return spent ? { challenge, ...spent } : undefined;
}

/** The passkeys a person holds, as WebAuthn credential descriptors. */
async function descriptorsOf(db: Db, userId: string) {
  const rows = await db.selectFrom('passkeys').select(['id', 'transports']).where('userId', '=', userId).orderBy('createdAt').execute();
  return rows.map((row) => ({ id: row.id, transports: row.transports }));
}

// ---- Signing in (without the password, or as the second step) ----

/**
 * The options of a passwordless sign-in: no credential named (the browser offers the
 * discoverable passkeys it holds for this site). Anyone may ask; each address is throttled
 * like the password step.
 */
export async function passkeySignInOptions(ctx: AppContext, ip: string): Promise<PasskeyRequestOptions> {
  if (ctx.config.rateLimits) {
    const admitted = await admitLoginAttempt(ctx.db, [{ key: `passkey-options:ip:${ip}`, policy: LOGIN_THROTTLE.perIp }]);
    if (!admitted.admitted) {
      throw refuse('passkey_rate_limited', { retryAfterSeconds: Math.max(1, Math.ceil(admitted.retryAfterMs / 1000)) });
    }
  }
  const { rpID } = relyingParty(ctx);
  const options = await generateAuthenticationOptions({ rpID, challenge: new Uint8Array(randomBytes(32)), userVerification: 'required', timeout: PASSKEY_CHALLENGE_MINUTES * 60_000 });
  await rememberChallenge(ctx.db, options.challenge, 'sign_in', null);
  return { ...options };
}

/** The options of a second step's passkey, bound to that sign-in's challenge and person; undefined without a passkey. */
export async function secondStepPasskeyOptions(db: Db, ctx: AppContext, userId: string, loginChallengeId: string): Promise<PasskeyRequestOptions | undefined> {
  const allowCredentials = await descriptorsOf(db, userId);
  if (allowCredentials.length === 0) return undefined;
  const { rpID } = relyingParty(ctx);
  const options = await generateAuthenticationOptions({ rpID, challenge: new Uint8Array(randomBytes(32)), allowCredentials, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_MINUTES * 60_000 });
  await rememberChallenge(db, options.challenge, 'second_step', userId, loginChallengeId);
  return { ...options };
}

export interface CheckedAssertion {
  passkeyId: string;
  userId: string;
  email: string;
  newCounter: number;
  oldCounter: number;
}

/** The passkey an assertion names (of this person, when given), with its owner's e-mail. */
export async function passkeyOwner(db: Db, credentialId: string, userId?: string) {
  let query = db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.userId')
    .select(['passkeys.id', 'passkeys.userId', 'passkeys.publicKey', 'passkeys.signCount', 'passkeys.transports', 'users.email'])
    .where('passkeys.id', '=', credentialId);
  if (userId !== undefined) query = query.where('passkeys.userId', '=', userId);
  return query.executeTakeFirst();
}

/**
 * Checks an assertion over a challenge already spent: the signature with the passkey's stored
 * key, the origin and rpID, the user handle (when sent) against the passkey's owner, and the
 * counter moving on. Throws SecondFactorRefused ('passkey_invalid', 'passkey_counter').
 */
export async function checkAssertion(
  ctx: AppContext,
  passkey: NonNullable<Awaited<ReturnType<typeof passkeyOwner>>>,
  assertion: PasskeyAssertion,
  challenge: string,
  /** A passwordless sign-in asks the authenticator to have verified the person (fingerprint, PIN): the passkey is then both factors. */
  requireUserVerification: boolean,
): Promise<CheckedAssertion> {
  const handle = assertion.response.userHandle;
  if (handle && handle !== isoBase64URL.fromBuffer(userHandleOf(passkey.userId))) throw new SecondFactorRefused('passkey_invalid');
  const { rpID, origin } = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.id, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.signCount, transports: passkey.transports },
      requireUserVerification,
    });
  } catch (error) {
    // The library refuses a counter that did not move past the stored one (a cloned authenticator).
    if (error instanceof Error && /counter/i.test(error.message)) throw new SecondFactorRefused('passkey_counter');
    throw new SecondFactorRefused('passkey_invalid');
  }
  if (!verified.verified) throw new SecondFactorRefused('passkey_invalid');
  return { passkeyId: passkey.id, userId: passkey.userId, email: passkey.email, newCounter: verified.authenticationInfo.newCounter, oldCounter: passkey.signCount };
}

/**
 * Inside the sign-in's transaction: moves the passkey's counter on (only from the value the
 * check read, so two sign-ins with the same counter cannot both pass) and records its use.
 */
export async function spendAssertion(trx: Db, checked: CheckedAssertion): Promise<void> {
  const moved = await trx
    .updateTable('passkeys')
    .set({ signCount: checked.newCounter, lastUsedAt: new Date() })
    .where('id', '=', checked.passkeyId)
    .where('signCount', '=', checked.oldCounter)
    .returning('id')
    .executeTakeFirst();
  if (!moved) throw new SecondFactorRefused('passkey_counter');
}

// ---- My Account → Security ----

const viewOf = (row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; backedUp: boolean }): PasskeyView => ({
  _id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  backedUp: row.backedUp,
});

export async function listPasskeys(ctx: AppContext, caller: Caller): Promise<PasskeyList> {
  const rows = await ctx.db.selectFrom('passkeys').select(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp']).where('userId', '=', caller.userId).orderBy('createdAt').execute();
  return rows.map(viewOf);
}

/**
 * The options for adding a passkey, with the account's password (reauthentication.ts: a
 * stolen session must not add the thief's passkey): a resident (discoverable) key, the
 * person's other passkeys excluded. The registration challenge is made only after the
 * password was right, and registerPasskey takes no passkey without one, so the password
 * guards the adding itself.
 */
export async function passkeyRegistrationOptions(ctx: AppContext, caller: Caller, body: PasskeyOptionsBody): Promise<PasskeyCreationOptions> {
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw refuse('unauthorized');
  const existing = await descriptorsOf(ctx.db, caller.userId);
  if (existing.length >= PASSKEY_MAX_PER_USER) throw refuse('passkey_limit', { message: `You can register up to ${PASSKEY_MAX_PER_USER} passkeys. Remove one first.` });
  await confirmPassword(ctx, caller, body.password, 'passkey_add');
  const { rpID } = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: PRODUCT_NAME,
    rpID,
    userID: userHandleOf(user.id),
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`,
    challenge: new Uint8Array(randomBytes(32)),
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
  });
  await rememberChallenge(ctx.db, options.challenge, 'register', caller.userId);
  return { ...options };
}

function deliverLater(ctx: AppContext, deliver: () => Promise<void>): void {
  deliver().catch((error: unknown) => ctx.log.error({ err: error }, 'passkey mail was not sent'));
}

/** Adds a passkey: the registration challenge spent, the attestation checked ('none' is all we ask), stored, audited and mailed. */
export async function registerPasskey(ctx: AppContext, caller: Caller, body: PasskeyRegisterBody): Promise<PasskeyView> {
  const spent = await spendChallenge(ctx.db, body.credential.response.clientDataJSON, 'register', caller.userId);
  if (!spent) throw challengeRefused();
  const { rpID, origin } = relyingParty(ctx);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response: body.credential,
      expectedChallenge: spent.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    info = verified.verified ? verified.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw refuse('passkey_invalid', { message: m.registrationFailed });
  const { credential, credentialBackedUp } = info;
  const added = await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .insertInto('passkeys')
      .values({
        id: credential.id,
        userId: caller.userId,
        name: body.name,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        signCount: credential.counter,
        transports: credential.transports ?? body.credential.response.transports ?? [],
        backedUp: credentialBackedUp,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp'])
      .executeTakeFirst();
    if (!row) throw refuse('passkey_already_registered');
    await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.passkey_added', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { passkeyId: row.id } });
    const user = await findUserById(trx, caller.userId);
    if (!user) throw refuse('unauthorized');
    return { view: viewOf(row), deliver: await ctx.mailer.stage(trx, passkeyMail(user.email, user.firstName, row.name, true, `${ctx.config.publicUrl}/my-account`)) };
  });
  deliverLater(ctx, added.deliver);
  return added.view;
}

export async function renamePasskey(ctx: AppContext, caller: Caller, passkeyId: string, body: PasskeyRenameBody): Promise<PasskeyView> {
  const row = await ctx.db
    .updateTable('passkeys')
    .set({ name: body.name })
    .where('id', '=', passkeyId)
    .where('userId', '=', caller.userId)
    .returning(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp'])
    .executeTakeFirst();
  if (!row) throw refuse('passkey_not_found');
  return viewOf(row);
}

/**
 * The options for confirming a change with one of the caller's passkeys (removing a passkey):
 * a challenge for this person only, their passkeys allowed, single use, 5 minutes.
 */
export async function passkeyConfirmOptions(ctx: AppContext, caller: Caller): Promise<PasskeyRequestOptions> {
  const allowCredentials = await descriptorsOf(ctx.db, caller.userId);
  if (allowCredentials.length === 0) throw refuse('passkey_not_found');
  const { rpID } = relyingParty(ctx);
  const options = await generateAuthenticationOptions({ rpID, challenge: new Uint8Array(randomBytes(32)), allowCredentials, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_MINUTES * 60_000 });
  await rememberChallenge(ctx.db, options.challenge, 'confirm', caller.userId);
  return { ...options };
}

/**
 * Removes a passkey with a current second factor, as turning the app off asks: a code (the
 * app's, or a recovery code, when the app is on) or an assertion of one of the caller's
 * passkeys over a `confirm` challenge (the only way for a person whose second factors are all
 * passkeys). Never the password alone: whoever has the password must not be able to take a
 * second factor away with it. Checks are throttled like codes. Audited and mailed; when it was
 * the last second factor, two-factor sign-in is off and the 'turned off' mail says so too.
 */
export async function removePasskey(ctx: AppContext, caller: Caller, passkeyId: string, body: PasskeyRemoveBody): Promise<void> {
  const owned = await ctx.db.selectFrom('passkeys').select(['id', 'name']).where('id', '=', passkeyId).where('userId', '=', caller.userId).executeTakeFirst();
  if (!owned) throw refuse('passkey_not_found');
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw refuse('unauthorized');
  const check = await admitCodeCheck(ctx, caller.userId, caller.ip);
  const securityUrl = `${ctx.config.publicUrl}/my-account`;
  let deliver: () => Promise<void>;
  try {
    // A passkey's assertion: over a challenge made for this person's confirmation (spent now, whatever follows).
    let assertion: CheckedAssertion | undefined;
    if (body.passkey) {
      const spent = await spendChallenge(ctx.db, body.passkey.response.clientDataJSON, 'confirm', caller.userId);
      if (!spent) throw new SecondFactorRefused('passkey_invalid');
      const passkey = await passkeyOwner(ctx.db, body.passkey.id, caller.userId);
      if (!passkey) throw new SecondFactorRefused('passkey_invalid');
      assertion = await checkAssertion(ctx, passkey, body.passkey, spent.challenge, false);
    }
    deliver = await inTransaction(ctx.db, async (trx) => {
      let used: 'passkey' | 'totp' | 'recovery_code';
      if (assertion) {
        await spendAssertion(trx, assertion);
        used = 'passkey';
      } else {
        // Only a confirmed app's codes count (a setup not turned on has a secret too).
        if (!(await totpEnabledFor(trx, caller.userId))) throw new SecondFactorRefused('wrong');
        used = await spendSecondFactor(trx, ctx.config.secretKey, caller.userId, body.code ?? '');
      }
      const removed = await trx.deleteFrom('passkeys').where('id', '=', passkeyId).where('userId', '=', caller.userId).returning('id').executeTakeFirst();
      if (!removed) throw refuse('passkey_not_found');
      await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.passkey_removed', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { passkeyId, with: used } });
      const sends = [await ctx.mailer.stage(trx, passkeyMail(user.email, user.firstName, owned.name, false, securityUrl))];
      // The last second factor gone (no app, no passkey): two-factor sign-in is off, said as turning it off says it.
      const passkeyLeft = await trx.selectFrom('passkeys').select('id').where('userId', '=', caller.userId).limit(1).executeTakeFirst();
      if (!passkeyLeft && !(await totpEnabledFor(trx, caller.userId))) {
        await trx.deleteFrom('loginChallenges').where('userId', '=', caller.userId).execute();
        await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.two_factor_disabled', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { with: used, by: 'last_passkey_removed' } });
        sends.push(await ctx.mailer.stage(trx, twoFactorChangedMail(user.email, user.firstName, 'off_last_passkey', securityUrl)));
      }
      return async () => {
        for (const send of sends) await send();
      };
    });
  } catch (error) {
    if (error instanceof SecondFactorRefused) {
      // A passkey that did not confirm is told as such (the sign-in's words would not fit here).
      const message = error.reason === 'passkey_invalid' ? m.confirmFailed : refusalMessage[error.reason];
      throw refuse(refusalCode[error.reason], { message, fields: { [body.passkey ? 'passkey' : 'code']: message } });
    }
    throw error;
  }
  await check.accepted();
  deliverLater(ctx, deliver);
}

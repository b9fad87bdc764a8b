import { createHmac } from 'node:crypto';
import { messages, TPIN_LOCK_MINUTES, TPIN_MAX_FAILED_ATTEMPTS } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { verifySecret } from '../../security/passwords.ts';

export class TpinLockedError extends AppError {
  constructor(readonly lockedUntil: Date) {
    super(423, 'tpin_locked', messages.tpin.locked);
  }
}

/** An operator has locked money movement on the account (Lock in the operator console). */
export class MoneyMovementLockedError extends AppError {
  constructor() {
    super(423, 'money_movement_locked', messages.tpin.operatorLocked);
  }
}

/**
 * Recently verified TPINs, so that an account sending many payments does not pay for an
 * argon2 verification (tens of milliseconds of CPU) each time. Only a success is remembered,
 * under an HMAC (keyed with the server secret) of the account, its current TPIN hash and
 * the candidate, for a few minutes; wrong guesses always take the full counted path, and a
 * locked account is refused whatever the cache holds.
 */
const VERIFIED_TTL_MS = 5 * 60_000;
const VERIFIED_MAX_ENTRIES = 10_000;
const recentlyVerified = new Map<string, number>();

function verifiedKey(secret: string, accountId: string, tpinHash: string, candidate: string): string {
  return createHmac('sha256', secret).update(`${accountId}\0${tpinHash}\0${candidate}`).digest('base64url');
}

function rememberVerified(key: string): void {
  recentlyVerified.delete(key);
  recentlyVerified.set(key, Date.now() + VERIFIED_TTL_MS);
  if (recentlyVerified.size > VERIFIED_MAX_ENTRIES) {
    const oldest = recentlyVerified.keys().next().value;
    if (oldest !== undefined) recentlyVerified.delete(oldest);
  }
}

function wasRecentlyVerified(key: string): boolean {
  const expiresAt = recentlyVerified.get(key);
  if (expiresAt === undefined) return false;
  if (expiresAt < Date.now()) {
    recentlyVerified.delete(key);
    return false;
  }
  return true;
}

/** An account's TPIN columns, as read without a lock. */
export interface TpinState {
  tpinHash: string;
  tpinFailedAttempts: number;
  tpinLockedUntil: Date | null;
  /** The operator's lock; honoured by the same checks as the TPIN lock. */
  moneyMovementLocked: boolean;
}

/**
 * The one TPIN check every money route uses; it runs (and commits) before the money
 * movement, because a wrong guess must be counted even though the request fails.
 *
 * The account row is locked while the hash is verified and the count is written in that
 * same transaction, so checks on one account run one after another: parallel guesses are
 * counted exactly, and after TPIN_MAX_FAILED_ATTEMPTS wrong TPINs in a row every further
 * check (right or wrong) is refused for TPIN_LOCK_MINUTES. A TPIN verified in the last few
 * minutes skips the slow hash (see recentlyVerified) but never a lock.
 *
 * `known` is the account's TPIN state when the caller has just read it with the account
 * (saving a query): it serves only the fast path, exactly as the unlocked read here would;
 * every counted decision is made again under the row lock.
 */
export async function checkTpin(
  db: Db,
  secret: string,
  accountId: string,
  tpin: string | number,
  actorUserId: string | null,
  known?: TpinState,
): Promise<void> {
  const candidate = String(tpin);
  const current =
    known ??
    (await db.selectFrom('accounts').select(['tpinHash', 'tpinFailedAttempts', 'tpinLockedUntil', 'moneyMovementLocked']).where('id', '=', accountId).executeTakeFirst());
  if (!current) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  if (current.moneyMovementLocked) throw new MoneyMovementLockedError();
  if (current.tpinLockedUntil && current.tpinLockedUntil > new Date()) throw new TpinLockedError(current.tpinLockedUntil);
  const cacheKey = verifiedKey(secret, accountId, current.tpinHash, candidate);
  if (current.tpinFailedAttempts === 0 && wasRecentlyVerified(cacheKey)) return;

  const outcome = await inTransaction(db, async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .select(['tpinHash', 'tpinFailedAttempts', 'tpinLockedUntil', 'moneyMovementLocked'])
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (account.moneyMovementLocked) return { kind: 'operator_locked' as const };
    const now = new Date();
    if (account.tpinLockedUntil && account.tpinLockedUntil > now) return { kind: 'locked' as const, until: account.tpinLockedUntil };

    if (await verifySecret(account.tpinHash, candidate)) {
      if (account.tpinFailedAttempts > 0 || account.tpinLockedUntil) {
        await trx.updateTable('accounts').set({ tpinFailedAttempts: 0, tpinLockedUntil: null }).where('id', '=', accountId).execute();
      }
      return { kind: 'ok' as const, tpinHash: account.tpinHash };
    }

    // A lock that has run out starts a fresh count.
    const failures = (account.tpinLockedUntil ? 0 : account.tpinFailedAttempts) + 1;
    if (failures >= TPIN_MAX_FAILED_ATTEMPTS) {
      const until = new Date(now.getTime() + TPIN_LOCK_MINUTES * 60_000);
      await trx.updateTable('accounts').set({ tpinFailedAttempts: 0, tpinLockedUntil: until }).where('id', '=', accountId).execute();
      await trx
        .insertInto('activities')
        .values({ accountId, name: 'TPIN locked', comment: `Money movement locked for ${TPIN_LOCK_MINUTES} minutes after ${TPIN_MAX_FAILED_ATTEMPTS} wrong TPINs` })
        .execute();
      await recordAudit(trx, { actorUserId, action: 'account.tpin_locked', subjectType: 'account', subjectId: accountId });
      return { kind: 'locked' as const, until };
    }
    await trx.updateTable('accounts').set({ tpinFailedAttempts: failures, tpinLockedUntil: null }).where('id', '=', accountId).execute();
    return { kind: 'wrong' as const, remaining: TPIN_MAX_FAILED_ATTEMPTS - failures };
  });

  if (outcome.kind === 'ok') {
    rememberVerified(verifiedKey(secret, accountId, outcome.tpinHash, candidate));
    return;
  }
  if (outcome.kind === 'operator_locked') throw new MoneyMovementLockedError();
  if (outcome.kind === 'locked') throw new TpinLockedError(outcome.until);
  const left = `${outcome.remaining} attempt${outcome.remaining === 1 ? '' : 's'} left`;
  throw badRequest(`${messages.tpin.wrong}. ${left} before money movement is locked.`, { tpin: messages.tpin.wrong }, 'tpin_incorrect');
}

/**
 * The lock decision for the money movement itself, as the first statement of its
 * transaction: the account row is held FOR SHARE until that transaction commits. A lock is
 * written under FOR UPDATE of the same row (checkTpin), so it either committed before this
 * read (the movement is refused) or waits until the movement has committed: nothing moves
 * after the lock exists, even when the TPIN check itself passed just before the lock.
 * Movements from one account do not wait for each other (shared locks). An operator's lock
 * (written under FOR UPDATE too, see the operator console) is decided here the same way.
 */
export async function assertTpinNotLocked(trx: Trx, accountId: string): Promise<void> {
  const account = await trx.selectFrom('accounts').select(['tpinLockedUntil', 'moneyMovementLocked']).where('id', '=', accountId).forShare().executeTakeFirst();
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  if (account.moneyMovementLocked) throw new MoneyMovementLockedError();
  if (account.tpinLockedUntil && account.tpinLockedUntil > new Date()) throw new TpinLockedError(account.tpinLockedUntil);
}

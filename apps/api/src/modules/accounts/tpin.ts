import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { messages, TPIN_LOCK_MINUTES, TPIN_MAX_FAILED_ATTEMPTS } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../db/database.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { refuse, Refusal } from '../../http/refusals.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { verifySecret } from '../../security/passwords.ts';

export class TpinLockedError extends Refusal {
  constructor(readonly lockedUntil: Date) {
    super('tpin_locked');
  }
}

/** An operator has locked money movement on the account (Lock in the operator console). */
export class MoneyMovementLockedError extends Refusal {
  constructor() {
    super('money_movement_locked');
  }
}

/**
 * TPINs are stored as a keyed hash: HMAC-SHA-256 with a key derived from SECRET_KEY, which
 * never enters the database. A 4-digit TPIN has 10,000 values, so a slow hash would not
 * protect it from anyone holding the table; the key does, and the check costs microseconds,
 * so it runs inside the ledger's one-call transfer.
 *
 * The current version (`hmac2$`) covers (user name, TPIN): the user name never changes and is
 * what a transfer names its sender by (debitAccountKey), so the server can make the hash
 * before its first call, even for a sender this process has never seen. The first version
 * (`hmac1$`, over the account id) needed the id, which only the database knew, hence a second
 * call; hashes of that version and argon2 hashes from before keyed hashes are upgraded on
 * their next successful check.
 */
export const TPIN_MAC_PREFIX = 'hmac2$';
/** The first keyed version, over the account id; read, never written any more. */
export const TPIN_MAC_V1_PREFIX = 'hmac1$';
const tpinKeys = new Map<string, Buffer>();

function tpinKey(secret: string): Buffer {
  let key = tpinKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'kestrel tpin hmac v1', 32));
    tpinKeys.set(secret, key);
  }
  return key;
}

function hmacHex(secret: string, salt: string, tpin: string | number): string {
  return createHmac('sha256', tpinKey(secret)).update(`${salt}\0${String(tpin)}`).digest('hex');
}

/**
 * The stored form of an account's TPIN, for its user name exactly as stored (the ledger
 * function compares the name the hash was made for with the row's, byte for byte).
 */
export function tpinMac(secret: string, userName: string, tpin: string | number): string {
  return TPIN_MAC_PREFIX + hmacHex(secret, userName, tpin);
}

/** The first keyed version, over the account id: only to check hashes stored before `hmac2$`. */
export function tpinMacV1(secret: string, accountId: string, tpin: string | number): string {
  return TPIN_MAC_V1_PREFIX + hmacHex(secret, accountId, tpin);
}

function sameText(a: string, b: string): boolean {
  const expected = Buffer.from(a);
  const actual = Buffer.from(b);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function tpinMatches(secret: string, account: { id: string; userName: string }, stored: string, candidate: string): Promise<boolean> | boolean {
  if (stored.startsWith(TPIN_MAC_PREFIX)) return sameText(tpinMac(secret, account.userName, candidate), stored);
  if (stored.startsWith(TPIN_MAC_V1_PREFIX)) return sameText(tpinMacV1(secret, account.id, candidate), stored);
  return verifySecret(stored, candidate);
}

/** An account's locks, as read without a row lock. */
export interface TpinState {
  tpinLockedUntil: Date | null;
  /** The operator's lock; honoured by the same checks as the TPIN lock. */
  moneyMovementLocked?: boolean;
  /** The account's user name, which the current keyed hash covers: with it the check is one call. */
  userName?: string;
}

/**
 * The one TPIN check every money route uses; it runs (and commits) before the money
 * movement, because a wrong guess must be counted even though the request fails.
 *
 * One call of `tpin_check` (db/functions/tpin_check.sql): the account row is locked while the
 * hash is compared and the count is written in that same transaction, so checks on one
 * account run one after another: parallel guesses are counted exactly, and after
 * TPIN_MAX_FAILED_ATTEMPTS wrong TPINs in a row every further check (right or wrong) is
 * refused for TPIN_LOCK_MINUTES. A matching `hmac1$` hash is replaced by the current keyed
 * hash in the same call; an argon2 hash is verified and replaced here (checkLegacyTpin).
 * Transfers do all of this inside the ledger's one-call primitive instead
 * (modules/ledger/transfer.ts), and wallet pays inside collect_post (which calls tpin_check
 * with `tpinCheckArgs`); both come here only to upgrade an argon2 hash.
 *
 * `known` is the account's TPIN lock when the caller has just read it with the account: a
 * lock it shows is refused at once; every counted decision is made under the row lock.
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
  if (known?.moneyMovementLocked) throw new MoneyMovementLockedError();
  if (known?.tpinLockedUntil && known.tpinLockedUntil > new Date()) throw new TpinLockedError(known.tpinLockedUntil);

  // One call (tpin_check); a second only when the caller did not know the user name the
  // current hash covers, and the Node.js path below only for an argon2 hash.
  let outcome = await tpinCheck(db, secret, accountId, candidate, actorUserId, known?.userName);
  if (outcome.kind === 'rekey') outcome = await tpinCheck(db, secret, accountId, candidate, actorUserId, outcome.userName);
  if (outcome.kind === 'rekey') throw new Error('tpin_check asked for a hash of the user name it was given');
  if (outcome.kind === 'legacy') outcome = await checkLegacyTpin(db, secret, accountId, candidate, actorUserId);
  throwUnlessTpinOk(outcome);
}

export type TpinOutcome =
  | { kind: 'ok' | 'missing' | 'operator_locked' }
  | { kind: 'locked'; until: Date }
  | { kind: 'wrong'; remaining: number }
  | { kind: 'rekey'; userName: string }
  | { kind: 'legacy' };

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const TPIN_CHECK = namedStatement(
  'tpin_check_v1',
  'SELECT kind, remaining, locked_until, user_name FROM tpin_check($1::uuid, $2, $3, $4, $5::uuid, $6::integer, $7::integer)',
);

/**
 * tpin_check's arguments for a TPIN: the keyed hashes (the key never enters the database) and
 * the limits. Also what collect_post takes as its `p_tpin`, to check a wallet payer's TPIN in
 * its own call.
 */
export interface TpinCheckArgs {
  macUserName: string | null;
  nameMac: string | null;
  idMac: string;
  maxAttempts: number;
  lockMinutes: number;
}

export function tpinCheckArgs(secret: string, accountId: string, candidate: string, userName: string | undefined): TpinCheckArgs {
  return {
    macUserName: userName ?? null,
    nameMac: userName === undefined ? null : tpinMac(secret, userName, candidate),
    idMac: tpinMacV1(secret, accountId, candidate),
    maxAttempts: TPIN_MAX_FAILED_ATTEMPTS,
    lockMinutes: TPIN_LOCK_MINUTES,
  };
}

/** tpin_check's answer (kind, remaining, locked_until, user_name) as an outcome. */
export function tpinOutcomeOf(row: { kind: string; remaining: number | null; lockedUntil: Date | null; userName: string | null }): TpinOutcome {
  switch (row.kind) {
    case 'ok':
    case 'missing':
    case 'operator_locked':
    case 'legacy':
      return { kind: row.kind };
    case 'locked':
      if (!row.lockedUntil) throw new Error('tpin_check answered locked without a time');
      return { kind: 'locked', until: row.lockedUntil };
    case 'wrong':
      return { kind: 'wrong', remaining: row.remaining ?? 0 };
    case 'rekey':
      if (row.userName === null) throw new Error('tpin_check answered rekey without the user name');
      return { kind: 'rekey', userName: row.userName };
    default:
      throw new Error(`tpin_check answered an unknown kind ${row.kind}`);
  }
}

async function tpinCheck(db: Db, secret: string, accountId: string, candidate: string, actorUserId: string | null, userName: string | undefined): Promise<TpinOutcome> {
  const args = tpinCheckArgs(secret, accountId, candidate, userName);
  const { rows } = await db.executeQuery<{ kind: string; remaining: number | null; lockedUntil: Date | null; userName: string | null }>(
    CompiledQuery.raw(TPIN_CHECK, [accountId, args.macUserName, args.nameMac, args.idMac, actorUserId, args.maxAttempts, args.lockMinutes]),
  );
  const row = rows[0];
  if (!row) throw new Error('tpin_check answered no row');
  return tpinOutcomeOf(row);
}

/** An argon2 TPIN from before keyed hashes: verified here, and replaced by the keyed hash when it matches. */
async function checkLegacyTpin(db: Db, secret: string, accountId: string, candidate: string, actorUserId: string | null): Promise<TpinOutcome> {
  return inTransaction(db, async (trx): Promise<TpinOutcome> => {
    const account = await trx
      .selectFrom('accounts')
      .select(['userName', 'tpinHash', 'tpinFailedAttempts', 'tpinLockedUntil', 'moneyMovementLocked'])
      .where('id', '=', accountId)
      // NO KEY UPDATE, as the ledger's transfer takes it: foreign-key checks naming this account do not wait.
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!account) return { kind: 'missing' as const };
    if (account.moneyMovementLocked) return { kind: 'operator_locked' as const };
    const now = new Date();
    if (account.tpinLockedUntil && account.tpinLockedUntil > now) return { kind: 'locked' as const, until: account.tpinLockedUntil };

    if (await tpinMatches(secret, { id: accountId, userName: account.userName }, account.tpinHash, candidate)) {
      const legacy = !account.tpinHash.startsWith(TPIN_MAC_PREFIX);
      if (legacy || account.tpinFailedAttempts > 0 || account.tpinLockedUntil) {
        await trx
          .updateTable('accounts')
          .set({ tpinFailedAttempts: 0, tpinLockedUntil: null, ...(legacy ? { tpinHash: tpinMac(secret, account.userName, candidate) } : {}) })
          .where('id', '=', accountId)
          .execute();
      }
      return { kind: 'ok' as const };
    }

    // A lock that has run out starts a fresh count.
    const failures = (account.tpinLockedUntil ? 0 : account.tpinFailedAttempts) + 1;
    if (failures >= TPIN_MAX_FAILED_ATTEMPTS) {
      const until = new Date(now.getTime() + TPIN_LOCK_MINUTES * 60_000);
      await trx.updateTable('accounts').set({ tpinFailedAttempts: 0, tpinLockedUntil: until }).where('id', '=', accountId).execute();
      await recordActivity(trx, accountId, 'TPIN locked', `Money movement locked for ${TPIN_LOCK_MINUTES} minutes after ${TPIN_MAX_FAILED_ATTEMPTS} wrong TPINs`);
      await recordAudit(trx, { actorUserId, action: 'account.tpin_locked', subjectType: 'account', subjectId: accountId });
      return { kind: 'locked' as const, until };
    }
    await trx.updateTable('accounts').set({ tpinFailedAttempts: failures, tpinLockedUntil: null }).where('id', '=', accountId).execute();
    return { kind: 'wrong' as const, remaining: TPIN_MAX_FAILED_ATTEMPTS - failures };
  });
}

/** Throws the refusal of a TPIN check that did not pass (ok returns; rekey and legacy are the caller's to follow). */
export function throwUnlessTpinOk(outcome: TpinOutcome): void {
  if (outcome.kind === 'ok') return;
  if (outcome.kind === 'missing') throw refuse('account_not_found');
  if (outcome.kind === 'operator_locked') throw new MoneyMovementLockedError();
  if (outcome.kind === 'locked') throw new TpinLockedError(outcome.until);
  if (outcome.kind !== 'wrong') throw new Error(`TPIN check ended as ${outcome.kind}`);
  const left = `${outcome.remaining} attempt${outcome.remaining === 1 ? '' : 's'} left`;
  throw refuse('tpin_incorrect', { message: `${messages.tpin.wrong}. ${left} before money movement is locked.`, fields: { tpin: messages.tpin.wrong } });
}

/**
 * The lock decision for a money movement made outside the ledger's one-call transfer
 * (withdrawals, store creation, wallet payments), as the first statement of its transaction:
 * the account row is held FOR SHARE until that transaction commits. A lock is written under a
 * stronger lock of the same row (checkTpin, the operator console), so it either committed
 * before this read (the movement is refused) or waits until the movement has committed:
 * nothing moves after the lock exists, even when the TPIN check itself passed just before.
 */
export async function assertTpinNotLocked(trx: Trx, accountId: string): Promise<void> {
  const account = await trx.selectFrom('accounts').select(['tpinLockedUntil', 'moneyMovementLocked']).where('id', '=', accountId).forShare().executeTakeFirst();
  if (!account) throw refuse('account_not_found');
  if (account.moneyMovementLocked) throw new MoneyMovementLockedError();
  if (account.tpinLockedUntil && account.tpinLockedUntil > new Date()) throw new TpinLockedError(account.tpinLockedUntil);
}

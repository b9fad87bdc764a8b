import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { inTransaction, type Trx } from '../db/transaction.ts';
import { refuse } from './refusals.ts';

export interface IdempotentResult<T> {
  statusCode: number;
  body: T;
  /** True when this answer is the stored first answer to an earlier request with the same key. */
  replayed: boolean;
}

/** The Idempotency-Key header, if any: 1 to 255 visible ASCII characters. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (!key || !/^[\x21-\x7e]{1,255}$/.test(key)) throw refuse('invalid_idempotency_key');
  return key;
}

/** The stored fingerprint of a request: its route and body (callers leave secrets such as a TPIN out). */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\0').update(JSON.stringify(body ?? null)).digest('hex');
}

/** The same key used with another request: 422. */
export const idempotencyKeyReused = () => refuse('idempotency_key_reused');

/** A key's stored request hash and first answer (as text), read with the record it is about. */
export interface EarlierUse {
  requestHash: string;
  bodyText: string;
}

/**
 * One column of (caller, key)'s stored row as a scalar subquery, so that a service reads a
 * key's earlier answer in the same statement as the record the request is about (issue 21:
 * one round trip fewer on the payment path). `caller` may be SQL naming the record's own id.
 */
export function earlierUseColumn(caller: string | RawBuilder<string>, key: string | undefined, column: 'request_hash' | 'response_body') {
  const value = column === 'response_body' ? sql`k.response_body::text` : sql`k.request_hash`;
  return sql<string | null>`(SELECT ${value} FROM idempotency_keys k WHERE k.caller = ${caller} AND k.idempotency_key = ${key ?? null})`;
}

/** The two columns of earlierUseColumn as one value: undefined when the key is new (or none was given). */
export const earlierUseOf = (requestHash: string | null, bodyText: string | null): EarlierUse | undefined =>
  requestHash !== null && bodyText !== null ? { requestHash, bodyText } : undefined;

/** The stored first answer of an earlier use of the key with this request; 422 for another request. */
export function replayOf<T>(earlier: EarlierUse, fingerprint: string): T {
  if (earlier.requestHash !== fingerprint) throw idempotencyKeyReused();
  return JSON.parse(earlier.bodyText) as T;
}

/**
 * The stored first answer to (caller, key), or undefined when there is none yet; a key
 * stored with another request's fingerprint is refused with 422.
 */
export async function storedAnswer<T>(source: Db | Trx, caller: string, key: string, fingerprint: string): Promise<IdempotentResult<T> | undefined> {
  const row = await source
    .selectFrom('idempotencyKeys')
    // The answer is read as text: the result mapping turns snake_case keys into camelCase,
    // and a stored answer must come back exactly as it was given (`_id` included).
    .select(['requestHash', 'responseStatus', sql<string>`response_body::text`.as('responseBodyText')])
    .where('caller', '=', caller)
    .where('idempotencyKey', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.requestHash !== fingerprint) throw idempotencyKeyReused();
  return { statusCode: row.responseStatus, body: JSON.parse(row.responseBodyText) as T, replayed: true };
}

/**
 * Runs a money-moving `work` exactly once per (caller, key). The key row, holding a hash of
 * the request and the first answer, is written in the same database transaction as the
 * money movement, so either both commit or neither does. A replay gets the stored answer;
 * the same key with another request gets 422. Without a key, `work` simply runs.
 * Failed requests are not recorded: they changed nothing, so a retry runs them afresh.
 */
export async function runIdempotent<T>(
  db: Db,
  options: {
    caller: string;
    key: string | undefined;
    route: string;
    body: unknown;
    statusCode: number;
    /** Runs (outside the transaction) only when the request is not a replay, e.g. the TPIN check. */
    beforeWork?: () => Promise<void>;
  },
  work: (trx: Trx) => Promise<T>,
): Promise<IdempotentResult<T>> {
  const { caller, key } = options;
  if (!key) {
    await options.beforeWork?.();
    const body = await inTransaction(db, work);
    return { statusCode: options.statusCode, body, replayed: false };
  }
  const fingerprint = requestHash(options.route, options.body);

  const stored = (source: Db | Trx) => storedAnswer<T>(source, caller, key, fingerprint);

  const earlier = await stored(db);
  if (earlier) return earlier;
  await options.beforeWork?.();
  try {
    return await inTransaction(db, async (trx) => {
      const body = await work(trx);
      // A concurrent request with the same key makes this insert wait for it, then fail with
      // a unique violation: this transaction (and its money movement) rolls back.
      await trx
        .insertInto('idempotencyKeys')
        .values({ caller, idempotencyKey: key, requestHash: fingerprint, responseStatus: options.statusCode, responseBody: JSON.stringify(body) })
        .execute();
      return { statusCode: options.statusCode, body, replayed: false };
    });
  } catch (error) {
    // A request with the same key committed while this one ran: this one lost the race on the
    // key row (a unique violation), or its work was refused because the first had already
    // changed what it acts on (a withdrawal cancelled twice at once finds it Cancelled). Either
    // way the first answer is this request's answer.
    const winner = await stored(db);
    if (winner) return winner;
    throw error;
  }
}

/** Idempotency keys are kept at least this long (as payment APIs do), then removed by the cleanup. */
export const idempotencyKeyRetentionMs = 24 * 60 * 60 * 1000;
/** How often the server process runs the cleanup. */
export const idempotencyCleanupIntervalMs = 60 * 60 * 1000;
const cleanupBatch = 5_000;

/**
 * Deletes the idempotency keys older than `olderThanMs`, in batches so no single statement
 * holds many row locks or runs into the statement timeout; answers how many went.
 */
export async function deleteExpiredIdempotencyKeys(db: Db, olderThanMs: number = idempotencyKeyRetentionMs): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs);
  let deleted = 0;
  for (;;) {
    const oldest = db
      .selectFrom('idempotencyKeys')
      .select(['caller', 'idempotencyKey'])
      .where('createdAt', '<', cutoff)
      .orderBy('createdAt')
      .limit(cleanupBatch)
      .$asTuple('caller', 'idempotencyKey');
    const result = await db
      .deleteFrom('idempotencyKeys')
      .where((eb) => eb(eb.refTuple('caller', 'idempotencyKey'), 'in', oldest))
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < cleanupBatch) return deleted;
  }
}

/**
 * Runs the cleanup once soon after start-up and then every `intervalMs`; a failure (the
 * database away) is logged and tried again at the next tick. Answers a function that stops it.
 */
export function scheduleIdempotencyCleanup(
  db: Db,
  log: { info(object: object, message: string): void; warn(object: object, message: string): void },
  intervalMs: number = idempotencyCleanupIntervalMs,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await deleteExpiredIdempotencyKeys(db);
      if (deleted) log.info({ deleted }, 'removed expired idempotency keys');
    } catch (error) {
      log.warn({ error: (error as Error).message }, 'idempotency key cleanup failed; trying again later');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), Math.min(intervalMs, 10_000));
  const timer = setInterval(() => void run(), intervalMs);
  // The timers alone must not keep a stopping process alive.
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

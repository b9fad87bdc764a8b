// Reads on a standby (DATABASE_READ_URL) without ever showing a caller less than they wrote.
//
// The design (README "Reads on a standby"): before a routed read, the primary's WAL position
// now (`pg_current_wal_lsn()`, a few microseconds of work) is the read's fence; the read goes to
// the standby only once the standby has replayed up to that fence (`pg_last_wal_replay_lsn()`),
// waiting a few milliseconds for it when it is just behind, otherwise to the primary. Every
// commit acknowledged before the request arrived (the caller's own transfer, a payment into
// their store by someone else) is below the fence, so a read sees it wherever it runs. Nothing
// is remembered about callers, so it holds across any number of API processes and devices,
// whatever the lag (pg_auto_failover's synchronous standby acknowledges on flush, not replay).
// A standby that fails (down, a recovery conflict, gone read-write elsewhere) is left alone for
// a few seconds and the read runs on the primary: a missing standby is never a user's error.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export interface ReadRoutingOptions {
  /** How long a read waits for the standby to replay up to its fence before going to the primary. */
  maxWaitMs?: number;
  /** After a standby failure, how long reads go straight to the primary before it is tried again. */
  restMs?: number;
  /** The standby's position check gives up after this (a silent network must not slow reads down). */
  checkTimeoutMs?: number;
  log?: { warn(object: object, message: string): void };
}

/** Where routed reads went, for tests and logs. */
export interface ReadCounts {
  /** Ran on the standby. */
  standby: number;
  /** On the primary because the standby had not replayed up to the fence within maxWaitMs. */
  primaryLagging: number;
  /** On the primary because the standby failed or is resting after a failure. */
  primaryUnavailable: number;
}

/** PostgreSQL's "canceling statement due to conflict with recovery" on a standby, and a read-only error from a misrouted write. */
const STANDBY_TROUBLE = new Set(['40001', '25006']);

function isStandbyTrouble(error: unknown): boolean {
  return isDatabaseUnavailable(error) || STANDBY_TROUBLE.has(String((error as { code?: unknown }).code ?? ''));
}

export class ReadRouter {
  readonly counts: ReadCounts = { standby: 0, primaryLagging: 0, primaryUnavailable: 0 };
  private restUntil = 0;
  private readonly maxWaitMs: number;
  private readonly restMs: number;
  private readonly checkTimeoutMs: number;

  constructor(
    readonly primary: Db,
    readonly standby: Db,
    private readonly options: ReadRoutingOptions = {},
  ) {
    this.maxWaitMs = options.maxWaitMs ?? 40;
    this.restMs = options.restMs ?? 5_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 1_000;
  }

  /**
   * Runs the read-only `work` on the standby when it has everything committed before now,
   * otherwise on the primary. A standby failure during `work` runs it again on the primary
   * (it only reads, so running it twice is harmless).
   */
  async run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    if (!(await this.standbyCaughtUp())) return work(this.primary);
    try {
      const result = await work(this.standby);
      this.counts.standby++;
      return result;
    } catch (error) {
      if (!isStandbyTrouble(error)) throw error;
      this.rest(error);
      this.counts.primaryUnavailable++;
      return work(this.primary);
    }
  }

  /**
   * Where a read that cannot simply run again should go (a streamed export: once its first
   * bytes are out it cannot move): the standby when it has everything committed before now.
   */
  async pick(): Promise<Db> {
    if (!(await this.standbyCaughtUp())) return this.primary;
    this.counts.standby++;
    return this.standby;
  }

  /** True when the standby has replayed everything the primary had written when this was called. */
  private async standbyCaughtUp(): Promise<boolean> {
    if (Date.now() < this.restUntil) {
      this.counts.primaryUnavailable++;
      return false;
    }
    // The fence: a failure here is the primary's, and answers as any primary failure does (503).
    const fence = (await sql<{ lsn: string | null }>`SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_lsn()::text END AS lsn`.execute(this.primary)).rows[0]?.lsn;
    // No position: the "primary" is a standby now (demoted, mid-failover; pg_current_wal_lsn()
    // would fail there). The read runs where it would without DATABASE_READ_URL.
    if (!fence) {
      this.counts.primaryLagging++;
      return false;
    }
    const since = Date.now();
    for (let pause = 1; ; pause = Math.min(pause * 2, 10)) {
      let replayed: boolean;
      try {
        replayed = await this.replayedUpTo(fence);
      } catch (error) {
        this.rest(error);
        this.counts.primaryUnavailable++;
        return false;
      }
      if (replayed) return true;
      if (Date.now() - since >= this.maxWaitMs) {
        this.counts.primaryLagging++;
        return false;
      }
      await sleep(pause);
    }
  }

  private async replayedUpTo(fence: string): Promise<boolean> {
    // A standby promoted since (a failover) replays nothing any more: its own position counts.
    const check = sql<{ replayed: boolean }>`
      SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END) >= ${fence}::pg_lsn AS replayed`.execute(this.standby);
    const controller = new AbortController();
    const timeout = sleep(this.checkTimeoutMs, undefined, { signal: controller.signal }).then(
      () => {
        throw Object.assign(new Error('the standby did not answer its position check in time'), { code: '57014' });
      },
      () => undefined,
    );
    try {
      const result = await Promise.race([check, timeout]);
      return result?.rows[0]?.replayed === true;
    } finally {
      controller.abort();
    }
  }

  private rest(error: unknown): void {
    if (Date.now() >= this.restUntil) this.options.log?.warn({ error: (error as Error).message, restMs: this.restMs }, 'standby for reads unavailable; reading on the primary');
    this.restUntil = Date.now() + this.restMs;
  }
}

/**
 * Runs a list or dashboard read through the context's read router (DATABASE_READ_URL), with a
 * context whose `db` is where the read goes; without a router, on the context as it is. Only
 * for reads outside any transaction: money, auth, sessions and idempotency stay on `ctx.db`.
 */
export async function onReadDb<C extends { db: Db; reads?: ReadRouter | undefined }, T>(ctx: C, work: (ctx: C) => Promise<T>): Promise<T> {
  const router = ctx.reads;
  if (!router) return work(ctx);
  return router.run((db) => work(db === ctx.db ? ctx : { ...ctx, db }));
}

/** The database for a streamed read (an export), chosen once as `ReadRouter.pick` does; without a router, `ctx.db`. */
export async function readDbFor(ctx: { db: Db; reads?: ReadRouter | undefined }): Promise<Db> {
  return ctx.reads ? ctx.reads.pick() : ctx.db;
}

import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/** `SELECT 1`, answering false instead of waiting longer than `timeoutMs` (a silent network must not hang /readyz). */
export async function isDatabaseReachable(db: Db, timeoutMs: number): Promise<boolean> {
  const controller = new AbortController();
  const probe = sql`SELECT 1`.execute(db).then(
    () => true,
    () => false,
  );
  const timeout = sleep(timeoutMs, false, { signal: controller.signal }).catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    controller.abort();
  }
}

export interface WaitOptions {
  /** Give up after this long (milliseconds). */
  limitMs: number;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
  /** First pause between attempts; doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Start-up: waits until the database answers, trying again with back-off and logging each
 * failed attempt, so a server started while PostgreSQL is down or recovering comes up by
 * itself once it is back. Throws when `limitMs` passes, or at once on an error that is not
 * about reachability (a wrong password, a missing database).
 */
export async function waitForDatabase(db: Db, options: WaitOptions): Promise<void> {
  const started = Date.now();
  let delay = options.initialDelayMs ?? 250;
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`SELECT 1`.execute(db);
      if (attempt > 1) options.log.info({ attempt, waitedMs: Date.now() - started }, 'database reachable');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= options.limitMs) {
        throw new Error(`The database is still unreachable after ${Math.round(waited / 1000)} s (${(error as Error).message})`, { cause: error });
      }
      const pause = Math.min(delay, options.limitMs - waited);
      options.log.warn({ attempt, retryInMs: pause, error: (error as Error).message }, 'database unreachable; trying again');
      await sleep(pause);
      delay = Math.min(delay * 2, options.maxDelayMs ?? 2_000);
    }
  }
}

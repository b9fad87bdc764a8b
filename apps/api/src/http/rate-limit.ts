import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** One limit: at most `max` hits of `key` per fixed window of `windowMs`. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

export interface Hit {
  key: string;
  /** Hits in the current window, this one included. */
  count: number;
  resetAt: Date;
}

/** About one hit in this many also sweeps windows that ended long ago, so the table stays small. */
const SWEEP_ONE_IN = 500;

/**
 * Counts one hit on each limit and answers the running counts, in one atomic statement.
 * The count is taken before the limited work runs: parallel requests each get their own
 * number, so a burst of N gets at most `max` through. A window that has run out starts
 * again at 1. The counters live in PostgreSQL, so every API process shares them.
 */
export async function takeHits(db: Db, limits: readonly Limit[]): Promise<Hit[]> {
  if (limits.length === 0) return [];
  if (Math.random() * SWEEP_ONE_IN < 1) await sql`DELETE FROM rate_limit_counters WHERE reset_at < now() - interval '1 day'`.execute(db);
  // Sorted keys: two statements touching the same keys lock them in the same order (no deadlock).
  const sorted = [...new Map(limits.map((limit) => [limit.key, limit])).values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  const rows = sql.join(sorted.map((limit) => sql`(${limit.key}, 1, now() + make_interval(secs => ${limit.windowMs / 1000}))`));
  const { rows: hits } = await sql<{ key: string; count: number; resetAt: Date }>`
    INSERT INTO rate_limit_counters AS c (key, count, reset_at) VALUES ${rows}
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.count + 1 END,
      reset_at = CASE WHEN c.reset_at <= now() THEN excluded.reset_at ELSE c.reset_at END
    RETURNING key, count, reset_at`.execute(db);
  return hits.map((hit) => ({ key: hit.key, count: Number(hit.count), resetAt: new Date(hit.resetAt) }));
}

/** The first limit these hits went over, if any. */
export function exceeded(limits: readonly Limit[], hits: readonly Hit[]): { limit: Limit; hit: Hit } | undefined {
  for (const limit of limits) {
    const hit = hits.find((candidate) => candidate.key === limit.key);
    if (hit && hit.count > limit.max) return { limit, hit };
  }
  return undefined;
}

/** Gives back one hit on each key (a request that turned out not to count, e.g. a successful sign-in). */
export async function returnHits(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const sorted = [...new Set(keys)].sort();
  await sql`UPDATE rate_limit_counters SET count = greatest(count - 1, 0) WHERE key IN (${sql.join(sorted)}) AND reset_at > now()`.execute(db);
}

/** Where the counters live: PostgreSQL (default) or Redis (REDIS_URL). Every API process shares them either way. */
export interface RateCounters {
  readonly description: string;
  take(limits: readonly Limit[]): Promise<Hit[]>;
  give(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export function postgresCounters(db: Db): RateCounters {
  return {
    description: 'PostgreSQL',
    take: (limits) => takeHits(db, limits),
    give: (keys) => returnHits(db, keys),
    close: async () => undefined,
  };
}

/** Lowers a count by one, never below zero and never creating a key (Lua runs atomically in Redis). */
const GIVE_BACK = "local n = tonumber(redis.call('GET', KEYS[1])) if n and n > 0 then return redis.call('DECR', KEYS[1]) end return 0";

/**
 * Counters in Redis: per limit, one MULTI of `SET key 0 PX window NX` (opens a window),
 * `INCR` (the running count) and `PTTL` (when the window ends), executed atomically.
 */
export function redisCounters(url: string, onError: (error: Error) => void): RateCounters {
  // Fail a request quickly instead of queueing it while Redis is unreachable.
  const client = new Redis(url, { keyPrefix: 'kestrel:rate:', maxRetriesPerRequest: 1, lazyConnect: true });
  // Connection trouble is logged here; the requests it affects fail on their own commands.
  client.on('error', onError);
  return {
    description: 'Redis (REDIS_URL)',
    async take(limits) {
      if (limits.length === 0) return [];
      const multi = client.multi();
      for (const limit of limits) multi.set(limit.key, '0', 'PX', limit.windowMs, 'NX').incr(limit.key).pttl(limit.key);
      const replies = (await multi.exec()) ?? [];
      const now = Date.now();
      return limits.map((limit, i) => {
        const [incrError, count] = replies[i * 3 + 1] ?? [];
        const [, ttl] = replies[i * 3 + 2] ?? [];
        if (incrError) throw incrError;
        return { key: limit.key, count: Number(count), resetAt: new Date(now + Math.max(0, Number(ttl))) };
      });
    },
    async give(keys) {
      await Promise.all([...new Set(keys)].map((key) => client.eval(GIVE_BACK, 1, key)));
    },
    async close() {
      client.disconnect();
    },
  };
}

/** The counters of this process; a context built without them (CLIs, tests) uses PostgreSQL. */
export function countersOf(ctx: { db: Db; counters?: RateCounters }): RateCounters {
  return ctx.counters ?? postgresCounters(ctx.db);
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The route a limit belongs to; the plugin hands its merged route settings (with `routeInfo`) to `child`. */
function routePrefix(options: unknown): string {
  const route = (options as { routeInfo?: { method?: unknown; url?: unknown } } | undefined)?.routeInfo;
  return typeof route?.url === 'string' ? `route:${String(route.method)} ${route.url}:` : 'route:*:';
}

/**
 * A store for @fastify/rate-limit that keeps its counts in the shared counters (PostgreSQL or
 * Redis) instead of process memory, where each API process would keep its own. Each route
 * limit gets its own key space.
 */
export function rateLimitStore(counters: RateCounters): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(options: unknown) {
      this.#prefix = routePrefix(options);
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      counters.take([{ key: `${this.#prefix}${key}`, max, windowMs: timeWindow }]).then(
        ([hit]) => callback(null, { current: hit?.count ?? 0, ttl: hit ? Math.max(0, hit.resetAt.getTime() - Date.now()) : 0 }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  }
  return PostgresRateLimitStore;
}

import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * A progressive delay: the first `free` failures cost nothing; after that, each failure makes
 * the next attempt wait, from `firstDelayMs` doubling up to `maxDelayMs`. The count starts
 * again once the key has been quiet (no attempt) for `quietMinutes`, longer than the longest
 * wait, so waiting out a delay never buys a fresh free budget (the address's short wait aside).
 */
export interface ThrottlePolicy {
  free: number;
  firstDelayMs: number;
  maxDelayMs: number;
  quietMinutes: number;
}

/**
 * Sign-in throttles (README, Security). A guesser at one address meets the (e-mail, address)
 * delay; one address trying many e-mails meets the per-address delay, short enough (at most
 * 10 s) that people behind one NAT are slowed, never locked out; guessing spread over many
 * addresses meets the per-e-mail delay. A device the account signed in from before (the
 * signed device cookie) passes those three and meets only its own delay, so nobody else's
 * failures can keep the owner out.
 */
export const LOGIN_THROTTLE = {
  perEmailAndIp: { free: 10, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
  perEmail: { free: 20, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
  perIp: { free: 50, firstDelayMs: 1_000, maxDelayMs: 10_000, quietMinutes: 15 },
  perDevice: { free: 10, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
} as const satisfies Record<string, ThrottlePolicy>;

/**
 * The sign-in throttle keys of a password check for this e-mail from this address (README,
 * Security): the login's, and the re-authentication's before a second factor is added, so
 * guesses at either count in one place.
 */
export function passwordThrottleKeys(rateLimits: boolean, email: string, ip: string): { owner: ThrottleKey[]; shared: ThrottleKey[] } {
  return {
    // Only this e-mail's attempts from this address fill it: a success (the owner) empties it.
    owner: [{ key: `login:email+ip:${email}|${ip}`, policy: LOGIN_THROTTLE.perEmailAndIp }],
    shared: [
      // The per-e-mail delay holds even with RATE_LIMITS=off (the test suite), as it always has.
      { key: `login:email:${email}`, policy: LOGIN_THROTTLE.perEmail },
      ...(rateLimits ? [{ key: `login:ip:${ip}`, policy: LOGIN_THROTTLE.perIp }] : []),
    ],
  };
}

/**
 * Password reset throttles (README, Forgotten password), on the same counters. Every request
 * counts (nothing is given back): per e-mail, a few links and then minutes between mails, so
 * nobody can fill an inbox; per address (with RATE_LIMITS on), one caller asking for many
 * e-mails or trying many links is slowed to one a minute at most.
 */
export const RESET_THROTTLE = {
  perEmail: { free: 3, firstDelayMs: 60_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
  perIp: { free: 20, firstDelayMs: 1_000, maxDelayMs: 60_000, quietMinutes: 15 },
} as const satisfies Record<string, ThrottlePolicy>;

/**
 * Second-factor throttles (README, Two-factor sign-in), on the same counters: every code
 * checked (the login's second step, turning 2FA on or off) counts per person at this address
 * and per person everywhere, before the check; a right code empties the first and gives its
 * count back to the second. With ±1 step a guess hits one in about 333,000, so after the
 * free tries the doubling delays keep a guesser far from that many. Each sign-in's second
 * step also dies after LOGIN_CHALLENGE_MAX_FAILURES wrong codes (the password again).
 */
export const SECOND_FACTOR_THROTTLE = {
  perUserAndIp: { free: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
  perUser: { free: 10, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, quietMinutes: 60 },
} as const satisfies Record<string, ThrottlePolicy>;

/** The wait before the next attempt once `failures` have been counted. */
export function delayAfter(policy: ThrottlePolicy, failures: number): number {
  if (failures <= policy.free) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(failures - policy.free - 1, 40));
}

/**
 * How many attempts one key admits within `windowMs` when every attempt is made the moment
 * it is allowed (the README's "budget per e-mail per hour").
 */
export function attemptsWithin(policy: ThrottlePolicy, windowMs: number): number {
  let attempts = 0;
  for (let at = 0; at < windowMs; attempts += 1) at += delayAfter(policy, attempts + 1);
  return attempts;
}

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

/*
 * Storage: the shared rate_limit_counters table (no table of its own), one row per key under
 * a prefix no fixed-window limit uses: `count` holds the failures and `reset_at` the earliest
 * next attempt. When the key went quiet follows from them (the last attempt was
 * `delayAfter(failures)` before `reset_at`). The table's sweep removes rows a day after.
 */
const PREFIX = 'login-throttle:';
// The statements read the clock with clock_timestamp(), not now(): now() is when the statement
// began, possibly before it waited for the row lock, so it could be earlier than the time the
// request that held the lock wrote, and refuse an attempt that is already due.

/** delayAfter in SQL, as an interval, for a failure count given as an SQL expression. */
function delaySql(policy: ThrottlePolicy, failures: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`((CASE WHEN ${failures} <= ${policy.free}::int THEN 0
    ELSE least(${policy.maxDelayMs}::float8, ${policy.firstDelayMs}::float8 * power(2::float8, least(${failures} - ${policy.free}::int - 1, 40))) END)
    * interval '1 millisecond')`;
}

/** Whether the row `c` has gone quiet: no failures, or its last attempt longer ago than the policy's quiet time. */
function quietSql(policy: ThrottlePolicy): RawBuilder<unknown> {
  return sql`(c.count <= 0 OR c.reset_at - ${delaySql(policy, sql`c.count`)} + ${policy.quietMinutes}::int * interval '1 minute' <= clock_timestamp())`;
}

/**
 * Admits one sign-in attempt when every key's gate is open (its next attempt time reached),
 * counting it as a failure before the password is checked (a success gives it back). Each key
 * is one atomic conditional upsert, in key order, stopping at the first closed gate: a
 * parallel burst cannot all pass one gate, and no transaction holds a connection while others
 * queue. (Keys before a closed gate keep this attempt's count: they belong to the same caller
 * or the same e-mail, so a refused attempt never costs anyone less than a checked one.)
 */
export async function admitLoginAttempt(db: Db, keys: readonly ThrottleKey[]): Promise<{ admitted: true } | { admitted: false; retryAfterMs: number }> {
  const sorted = [...new Map(keys.map((entry) => [entry.key, entry])).values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  for (const { key, policy } of sorted) {
    const quiet = quietSql(policy);
    const { rows } = await sql<{ count: number }>`
      INSERT INTO rate_limit_counters AS c (key, count, reset_at) VALUES (${PREFIX + key}, 1, clock_timestamp() + ${delaySql(policy, sql`1`)})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN ${quiet} THEN 1 ELSE c.count + 1 END,
        reset_at = clock_timestamp() + CASE WHEN ${quiet} THEN ${delaySql(policy, sql`1`)} ELSE ${delaySql(policy, sql`(c.count + 1)`)} END
      WHERE ${quiet} OR c.reset_at <= clock_timestamp()
      RETURNING c.count`.execute(db);
    if (rows.length === 0) {
      const { rows: waits } = await sql<{ waitMs: number }>`
        SELECT greatest(0, extract(epoch FROM reset_at - clock_timestamp()) * 1000) AS wait_ms FROM rate_limit_counters WHERE key = ${PREFIX + key}`.execute(db);
      return { admitted: false, retryAfterMs: Math.ceil(Number(waits[0]?.waitMs ?? policy.firstDelayMs)) };
    }
  }
  return { admitted: true };
}

/**
 * After a successful sign-in: keys only the owner can fill (their e-mail at this address,
 * their device) start again from nothing; shared keys (the e-mail everywhere, the address)
 * only get this attempt's count back, and their wait shrinks to what the failures alone ask.
 */
export async function afterSuccessfulLogin(db: Db, reset: readonly string[], giveBack: readonly ThrottleKey[]): Promise<void> {
  if (reset.length > 0) await sql`DELETE FROM rate_limit_counters WHERE key IN (${sql.join(reset.map((key) => PREFIX + key))})`.execute(db);
  for (const { key, policy } of [...giveBack].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    await sql`
      UPDATE rate_limit_counters AS c SET
        count = c.count - 1,
        reset_at = least(c.reset_at, clock_timestamp() + ${delaySql(policy, sql`(c.count - 1)`)})
      WHERE c.key = ${PREFIX + key} AND NOT ${quietSql(policy)}`.execute(db);
  }
}

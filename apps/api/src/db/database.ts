import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CamelCasePlugin, type CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import { PGliteThread } from './pglite-thread.ts';
import { MultiHostPool, parseMultiHostUrl } from './multi-host.ts';
import { explainCertificateRefusal, hostConnection, type ConnectionDefaults } from './connection-settings.ts';

// bigint (int8) columns hold cents; every amount we allow is far inside 2^53, so they
// are read as JS numbers. COUNT(*) is int8 too.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value out of safe range: ${value}`);
  return n;
});

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGUSER and PGSSLMODE (config.ts), for a URL without a user or an sslmode; absent: `pg`'s own defaults. */
  connectionDefaults?: ConnectionDefaults | undefined;
  /** Directory for the embedded database; absent means in memory (tests). */
  pgliteDir?: string | undefined;
  poolSize?: number;
  /** PostgreSQL only (PGlite has no network): how long to wait before calling the database unreachable. */
  timeouts?: DatabaseTimeouts;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Where a lost connection is reported, once per connection. */
  log?: ConnectionLog;
  /**
   * Send `namedStatement` / `prepared` texts as named prepared statements (default). Off for
   * PgBouncer in transaction mode (1.18 keeps no prepared statement between transactions):
   * everything then goes out unnamed. README "Behind PgBouncer".
   */
  namedStatements?: boolean;
}

export interface DatabaseTimeouts {
  /** Opening a connection (TCP, TLS, authentication), and waiting for a free one in the pool. */
  connectMs: number;
  /** PostgreSQL's statement_timeout; the client also gives up on an answer 1 s after it (a silent network). 0 = none. */
  statementMs: number;
  /** PostgreSQL's idle_in_transaction_session_timeout: a transaction left open this long is ended by the server. 0 = none. */
  idleInTransactionMs: number;
}

export const defaultDatabaseTimeouts: DatabaseTimeouts = { connectMs: 5_000, statementMs: 15_000, idleInTransactionMs: 15_000 };

/** For migrations and whole-ledger checks, which may rightly run longer than a request's statement. */
export const withoutStatementTimeouts = (timeouts: DatabaseTimeouts): DatabaseTimeouts => ({ ...timeouts, statementMs: 0, idleInTransactionMs: 0 });

export interface ConnectionLog {
  warn(object: object, message: string): void;
}

/** Statement text → prepared-statement name, for the statements registered with `namedStatement`. */
const statementNames = new Map<string, string>();

/**
 * Registers `text` as a named prepared statement and answers it, to be run through Kysely
 * (`db.executeQuery(CompiledQuery.raw(text, values))`). Kysely's connection sends every query
 * unnamed, so PostgreSQL parses and plans it on every call; the pool adapter below sends a
 * registered text as `pg`'s `{ name, text, values }` instead: parsed once per connection,
 * then only bound and executed. For the hot path's one call, where parsing is a visible share.
 */
export function namedStatement(name: string, text: string): string {
  const known = statementNames.get(text);
  if (known === name) return text;
  // `pg` refuses one name for two texts on a connection; catch it at registration instead.
  if (known !== undefined || [...statementNames.values()].includes(name)) throw new Error(`prepared statement ${name} registered twice`);
  statementNames.set(text, name);
  return text;
}

/**
 * A query built with Kysely, sent as a named prepared statement (see `namedStatement`). Its
 * text can differ with its inputs' shape (e.g. how the account is named), so each distinct
 * text gets its own name, `name` and a hash of the text: a few per call site, never one per value.
 */
export function prepared<R>(name: string, query: CompiledQuery<R>): CompiledQuery<R> {
  namedStatement(`${name}_${createHash('sha256').update(query.sql).digest('hex').slice(0, 12)}`, query.sql);
  return query;
}

/** A `pg.Pool`, or the multi-host pool that follows the primary (multi-host.ts). */
interface ConnectionSource {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  /** Told about a connection that failed as unreachable (multi-host: drop that host). */
  reportBroken?(client: pg.PoolClient, error: unknown): void;
}

/**
 * Kysely's view of the pool: registered statements go out named (see `namedStatement`; unless
 * `namedStatements` is off, for PgBouncer), and on
 * PostgreSQL (`discardBroken`) a connection that failed with a connection-level error (reset,
 * terminated, timed out) is discarded instead of handed back to the pool for the next request:
 * after a client-side read timeout `pg` would still consider it usable.
 */
function kyselyPool(pool: ConnectionSource, options: { discardBroken: boolean; namedStatements: boolean }): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => {
        throw explainCertificateRefusal(error);
      });
      let broken: Error | undefined;
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      return {
        query(...args: unknown[]) {
          const [text, values] = args;
          const name = options.namedStatements && typeof text === 'string' ? statementNames.get(text) : undefined;
          const result = name === undefined ? query(...args) : query({ name, text, values });
          if (!options.discardBroken || !(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            if (isDatabaseUnavailable(error)) broken = error as Error;
            throw error;
          });
        },
        release: () => {
          if (broken) pool.reportBroken?.(client, broken);
          client.release(broken);
        },
      } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

function postgresPool(options: DatabaseOptions): ConnectionSource {
  const timeouts = options.timeouts ?? defaultDatabaseTimeouts;
  const settings: pg.PoolConfig = {
    max: options.poolSize ?? 20,
    application_name: options.applicationName ?? 'kestrel',
    connectionTimeoutMillis: timeouts.connectMs,
    keepAlive: true,
    ...(timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + 1_000 } : {}),
    ...(timeouts.idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs } : {}),
  };
  // The URL read with libpq's meanings (connection-settings.ts), never by `pg`'s own reading.
  const url = options.databaseUrl ?? '';
  const defaults = options.connectionDefaults ?? {};
  // Several hosts (libpq's multi-host form, what pg_autoctl prints): follow the primary. Also
  // one host with sslmode=allow or prefer, whose second try needs a pool of its own.
  const multiHost = parseMultiHostUrl(url, defaults);
  if (multiHost) return new MultiHostPool(multiHost, settings, (pool) => listenForLostConnections(pool, options.log));
  const pool = new pg.Pool({ ...settings, ...hostConnection(url, defaults) });
  listenForLostConnections(pool, options.log);
  return pool;
}

function listenForLostConnections(pool: pg.Pool, log: ConnectionLog | undefined): void {
  // Without a listener, a connection that breaks while a request holds it (between two of its
  // queries) is an unhandled 'error' event and ends the process. The query in flight, if any,
  // fails on its own and the request answers 503; the broken client is discarded on release.
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (error) => {
      if (reported) return;
      reported = true;
      log?.warn({ error: error.message, code: (error as { code?: string }).code }, 'database connection lost');
    });
  });
  // An idle connection's error reaches both its own listener above (which logs it) and the
  // pool, which removes the connection; the pool's event only needs a listener so it cannot crash.
  pool.on('error', () => {});
}

/** Opens the database: PostgreSQL via `pg`, or embedded PGlite through the same `pg` driver. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = kyselyPool(postgresPool(options), { discardBroken: true, namedStatements: options.namedStatements ?? true });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  let lock: DirectoryLock | undefined;
  let pglite: PGliteThread | undefined;
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    // PGlite has no lock between processes; two writers would corrupt the files.
    lock = acquireDirectoryLock(path.join(options.pgliteDir, '..', 'kestrel.lock'));
  }
  try {
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    // The engine runs on a thread of its own (see pglite-thread.ts); PGlite's `pg` adapter
    // talks to it as it would to an in-process PGlite.
    const engine = new PGliteThread(options.pgliteDir);
    try {
      await engine.waitReady;
    } catch (error) {
      await engine.close();
      throw error;
    }
    pglite = engine;
    // PGlite is one connection: a pool of one serialises transactions, as PostgreSQL would with locks.
    // The `pg` clients this pool makes share one PGlite connection object, and with it the
    // record of which statements are prepared, as PGlite's one backend shares them.
    const pool = kyselyPool(new pg.Pool({ ...createPgConfig(engine as unknown as Parameters<typeof createPgConfig>[0] & object), max: 1 }), {
      discardBroken: false,
      namedStatements: options.namedStatements ?? true,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy();
        await engine.close();
        lock?.release();
      },
    };
  } catch (error) {
    await pglite?.close();
    lock?.release();
    throw error;
  }
}

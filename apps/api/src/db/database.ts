import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.ts';

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
  /** Directory for the embedded database; absent means in memory (tests). */
  pgliteDir?: string | undefined;
  poolSize?: number;
}

/** Opens the database: PostgreSQL via `pg`, or embedded PGlite through the same `pg` driver. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  let lock: DirectoryLock | undefined;
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    // PGlite has no lock between processes; two writers would corrupt the files.
    lock = acquireDirectoryLock(path.join(options.pgliteDir, '..', 'kestrel.lock'));
  }
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const pglite = await PGlite.create(options.pgliteDir ?? 'memory://');
    // PGlite is one connection: a pool of one serialises transactions, as PostgreSQL would with locks.
    const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy();
        await pglite.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

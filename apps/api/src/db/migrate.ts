import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { isDatabaseUnavailable } from './unavailable.ts';
import type { Db } from './database.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const defaultMigrationsDir = path.join(here, 'migrations');
const defaultFunctionsDir = path.join(here, 'functions');
const functionFileName = /^[a-z][a-z0-9_]*\.sql$/;
const migrationName = /^(\d{4})_[a-z0-9_]+\.sql$/;

/**
 * Numbers that are missing on purpose. 0003 was never released: databases made before this
 * check already recorded 0004, so a late 0003 would run after 0004 there and before it on a
 * new database. It stays empty; new migrations take the next number after the highest.
 */
export const historicalGaps: ReadonlySet<number> = new Set([3]);

export class MigrationOrderError extends Error {
  constructor(message: string) {
    super(`Migrations refused: ${message}`);
    this.name = 'MigrationOrderError';
  }
}

const numberOf = (file: string) => Number(migrationName.exec(file)?.[1]);

/**
 * Checks the migration files against what the database has applied and answers the files
 * still to apply, in order. Refused: two files with one number, a number skipped (other than
 * a historical gap), a file in a historical gap, a file applied under another name, and a file
 * not yet applied whose number is below the highest applied one (it would run out of order).
 */
export function planMigrations(files: readonly string[], appliedNames: readonly string[]): string[] {
  const sorted = files.filter((name) => migrationName.test(name)).sort();
  const pad = (n: number) => String(n).padStart(4, '0');
  let expected = 1;
  for (const [index, file] of sorted.entries()) {
    const number = numberOf(file);
    if (index > 0 && number === numberOf(sorted[index - 1]!)) throw new MigrationOrderError(`${sorted[index - 1]} and ${file} share the number ${pad(number)}.`);
    if (historicalGaps.has(number)) throw new MigrationOrderError(`${file} uses ${pad(number)}, a number left empty on purpose; number it after the highest migration.`);
    while (historicalGaps.has(expected)) expected += 1;
    if (number !== expected) throw new MigrationOrderError(`${pad(expected)} is missing before ${file}; migration numbers must follow each other without gaps.`);
    expected += 1;
  }
  const applied = new Set(appliedNames);
  const appliedByNumber = new Map(appliedNames.filter((name) => migrationName.test(name)).map((name) => [numberOf(name), name]));
  const highestApplied = Math.max(0, ...appliedByNumber.keys());
  const pending: string[] = [];
  for (const file of sorted) {
    if (applied.has(file)) continue;
    const number = numberOf(file);
    const other = appliedByNumber.get(number);
    if (other) throw new MigrationOrderError(`${file} has the number of ${other}, which this database already applied; a released migration is never renamed or replaced.`);
    if (number < highestApplied) {
      throw new MigrationOrderError(
        `${file} is not applied but ${appliedByNumber.get(highestApplied)} already is, so it would run out of order; give it a number after ${pad(highestApplied)}.`,
      );
    }
    pending.push(file);
  }
  return pending;
}

export class FunctionApplyError extends Error {
  constructor(file: string, cause: unknown) {
    super(`Database function ${file} refused: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'FunctionApplyError';
  }
}

export interface MigrateOptions {
  /** The numbered migrations; tests point it elsewhere. */
  migrationsDir?: string;
  /** The repeatable function files; tests point it elsewhere. */
  functionsDir?: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The repeatable step, after the numbered migrations (as Flyway's repeatable migrations): each
 * `<name>.sql` in db/functions whose text's sha256 differs from the checksum recorded in
 * schema_functions (or has none) is applied in its own transaction, in file-name order, and
 * its checksum recorded; an unchanged file is skipped. A file that fails stops start-up with
 * its name. Files are `CREATE OR REPLACE FUNCTION` (after a `DROP FUNCTION IF EXISTS` of an
 * old signature when the signature changes), so applying one again is always safe.
 */
async function applyFunctions(connection: Db, functionsDir: string): Promise<string[]> {
  const files = readdirSync(functionsDir).filter((name) => name.endsWith('.sql')).sort();
  const misnamed = files.find((name) => !functionFileName.test(name));
  if (misnamed) throw new FunctionApplyError(misnamed, new Error('a function file is named <function_name>.sql in lower case'));
  await sql`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(connection);
  const recorded = await sql<{ name: string; checksum: string }>`SELECT name, checksum FROM schema_functions`.execute(connection);
  const checksums = new Map(recorded.rows.map((row) => [row.name, row.checksum]));
  const applied: string[] = [];
  for (const file of files) {
    const name = file.slice(0, -'.sql'.length);
    const text = readFileSync(path.join(functionsDir, file), 'utf8');
    const checksum = sha256(text);
    if (checksums.get(name) === checksum) continue;
    try {
      await connection.transaction().execute(async (trx) => {
        await sql.raw(text).execute(trx);
        await sql`INSERT INTO schema_functions (name, checksum) VALUES (${name}, ${checksum})
          ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`.execute(trx);
      });
    } catch (error) {
      // A lost connection stays itself, so start-up's wait-and-retry still recognises it.
      if (isDatabaseUnavailable(error)) throw error;
      throw new FunctionApplyError(file, error);
    }
    applied.push(`functions/${file}`);
  }
  return applied;
}

/**
 * True when every numbered migration is applied and every function file's checksum is recorded
 * (the usual start-up): there is nothing to do, so `migrate` takes no lock. Read outside the
 * lock: a migration under way elsewhere shows as work to do, and the locked path waits for it.
 */
async function upToDate(db: Db, files: readonly string[], functionsDir: string): Promise<boolean> {
  let done: string[];
  let checksums: Map<string, string>;
  try {
    done = (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db)).rows.map((row) => row.name);
    const recorded = await sql<{ name: string; checksum: string }>`SELECT name, checksum FROM schema_functions`.execute(db);
    checksums = new Map(recorded.rows.map((row) => [row.name, row.checksum]));
  } catch (error) {
    // undefined_table: a new database, which has neither table yet.
    if ((error as { code?: unknown }).code === '42P01') return false;
    throw error;
  }
  if (planMigrations(files, done).length) return false;
  return readdirSync(functionsDir)
    .filter((name) => name.endsWith('.sql'))
    .every((file) => checksums.get(file.slice(0, -'.sql'.length)) === sha256(readFileSync(path.join(functionsDir, file), 'utf8')));
}

/**
 * Applies the numbered SQL files in db/migrations in order, each in its own transaction,
 * recording them in schema_migrations, after planMigrations has checked their order; then the
 * changed function files of db/functions (applyFunctions). An advisory lock keeps two starting
 * processes from migrating at once. Answers what it applied (function files as `functions/<file>`).
 *
 * The lock is a session's (`pg_advisory_lock`), taken and released by two statements: through
 * PgBouncer in transaction mode those can run on two different server connections, so
 * migrations run on a direct connection (README "Behind PgBouncer"). A database already up to
 * date, what API processes behind PgBouncer find at start-up, is left without taking the lock.
 */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir;
  const functionsDir = options.functionsDir ?? defaultFunctionsDir;
  const files = readdirSync(migrationsDir);
  if (await upToDate(db, files, functionsDir)) return [];
  const applied: string[] = [];
  await db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(727274)`.execute(connection);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(connection);
      const done = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(connection);
      for (const file of planMigrations(files, done.rows.map((row) => row.name))) {
        const text = readFileSync(path.join(migrationsDir, file), 'utf8');
        await connection.transaction().execute(async (trx) => {
          await sql.raw(text).execute(trx);
          await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(trx);
        });
        applied.push(file);
      }
      applied.push(...(await applyFunctions(connection, functionsDir)));
    } finally {
      await sql`SELECT pg_advisory_unlock(727274)`.execute(connection);
    }
  });
  return applied;
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
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

/**
 * Applies the numbered SQL files in db/migrations in order, each in its own transaction,
 * recording them in schema_migrations, after planMigrations has checked their order. An
 * advisory lock keeps two starting processes from migrating at once.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(migrationsDir);
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
    } finally {
      await sql`SELECT pg_advisory_unlock(727274)`.execute(connection);
    }
  });
  return applied;
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the numbered SQL files in db/migrations in order, each in its own transaction,
 * recording them in schema_migrations. An advisory lock keeps two starting processes
 * from migrating at once.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(migrationsDir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  const applied: string[] = [];
  await db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(727274)`.execute(connection);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(connection);
      const done = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(connection);
      const doneNames = new Set(done.rows.map((row) => row.name));
      for (const file of files) {
        if (doneNames.has(file)) continue;
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

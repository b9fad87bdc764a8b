import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { testDatabase } from '../../test/harness.ts';
import { historicalGaps, migrate, MigrationOrderError, planMigrations } from './migrate.ts';

const released = ['0001_foundation.sql', '0002_accounts_ledger.sql', '0004_transfers.sql'];

describe('migration order', () => {
  it('accepts the files in the repository and has applied all of them to the test database', async () => {
    const files = readdirSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations'));
    const { db } = await testDatabase();
    const done = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
    expect(planMigrations(files, done.rows.map((row) => row.name))).toEqual([]);
    expect(planMigrations(files, [])).toEqual(files.filter((name) => name.endsWith('.sql')).sort());
  });

  it('keeps 0003 as the one allowed historical gap', () => {
    expect([...historicalGaps]).toEqual([3]);
    expect(planMigrations(released, [])).toEqual(released);
    expect(planMigrations(released, released.slice(0, 2))).toEqual(['0004_transfers.sql']);
  });

  it('accepts new migrations numbered one after another from 0005', () => {
    const files = [...released, '0005_groundwork.sql', '0006_gateway.sql', '0007_withdrawals.sql'];
    expect(planMigrations(files, released)).toEqual(['0005_groundwork.sql', '0006_gateway.sql', '0007_withdrawals.sql']);
    expect(planMigrations(files, [...released, '0005_groundwork.sql'])).toEqual(['0006_gateway.sql', '0007_withdrawals.sql']);
  });

  it('refuses a new gap', () => {
    expect(() => planMigrations([...released, '0006_gateway.sql'], released)).toThrow(
      new MigrationOrderError('0005 is missing before 0006_gateway.sql; migration numbers must follow each other without gaps.'),
    );
    expect(() => planMigrations(['0002_accounts_ledger.sql'], [])).toThrow('0001 is missing before 0002_accounts_ledger.sql');
  });

  it('refuses a late file in the historical gap', () => {
    expect(() => planMigrations([...released.slice(0, 2), '0003_late.sql', released[2]!], released)).toThrow(
      'Migrations refused: 0003_late.sql uses 0003, a number left empty on purpose; number it after the highest migration.',
    );
  });

  it('refuses a file below the highest applied one that is not applied yet', () => {
    const files = [...released, '0005_a.sql', '0006_b.sql'];
    expect(() => planMigrations(files, [...released, '0006_b.sql'])).toThrow(
      'Migrations refused: 0005_a.sql is not applied but 0006_b.sql already is, so it would run out of order; give it a number after 0006.',
    );
  });

  it('refuses two files with one number and a renamed released file', () => {
    expect(() => planMigrations([...released, '0005_a.sql', '0005_b.sql'], released)).toThrow('0005_a.sql and 0005_b.sql share the number 0005.');
    expect(() => planMigrations([...released, '0005_renamed.sql'], [...released, '0005_original.sql'])).toThrow(
      '0005_renamed.sql has the number of 0005_original.sql, which this database already applied',
    );
  });
});

describe('the migration lock', () => {
  const url = inject('testDatabaseUrl');
  it.skipIf(!url)('is not taken when the database is up to date (behind PgBouncer its lock and unlock could run on two server sessions)', async () => {
    const { db } = await testDatabase();
    // Another session holds the lock: a migrate that took it would wait for it.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(727274)');
      const answered = await Promise.race([migrate(db), sleep(5_000).then(() => 'waited for the lock')]);
      expect(answered).toEqual([]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock(727274)');
      await holder.end();
    }
  });
});

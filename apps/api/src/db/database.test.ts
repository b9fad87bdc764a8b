import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { namedStatement, openDatabase, prepared, type DatabaseHandle } from './database.ts';

// A pool of one connection, so the statements run and the catalogue read below share a session
// (on PGlite there is only one anyway).
let database: DatabaseHandle;
beforeAll(async () => {
  const url = inject('testDatabaseUrl');
  database = await openDatabase({ databaseUrl: url || undefined, poolSize: 1 });
});
afterAll(async () => {
  await database.close();
});

async function preparedNames(): Promise<string[]> {
  const result = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(database.db);
  return result.rows.map((row) => row.name);
}

describe('named prepared statements', () => {
  it('sends a registered text by its name, prepared once on the connection, and leaves other queries unnamed', async () => {
    const text = namedStatement('database_test_answer', 'SELECT $1::integer + 1 AS answer');
    for (const value of [41, 9]) {
      const { rows } = await database.db.executeQuery<{ answer: number }>(CompiledQuery.raw(text, [value]));
      expect(rows).toEqual([{ answer: value + 1 }]);
    }
    await database.db.executeQuery(CompiledQuery.raw('SELECT $1::integer AS unnamed', [1]));
    expect((await preparedNames()).filter((name) => name.startsWith('database_test'))).toEqual(['database_test_answer']);
  });

  it('names a query built with Kysely by its call site and its text', async () => {
    const query = sql<{ n: number }>`SELECT ${5}::integer * 2 AS n`.compile(database.db);
    const { rows } = await database.db.executeQuery(prepared('database_test_built', query));
    expect(rows).toEqual([{ n: 10 }]);
    expect((await preparedNames()).filter((name) => name.startsWith('database_test_built_'))).toHaveLength(1);
  });

  it('refuses one name for two texts, which pg would refuse on the connection', () => {
    namedStatement('database_test_twice', 'SELECT 1');
    expect(() => namedStatement('database_test_twice', 'SELECT 2')).toThrow('registered twice');
    expect(namedStatement('database_test_twice', 'SELECT 1')).toBe('SELECT 1');
  });
});

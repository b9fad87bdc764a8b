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

describe('DATABASE_NAMED_STATEMENTS=off (PgBouncer in transaction mode)', () => {
  it('sends registered texts unnamed: nothing is left prepared on the connection', async () => {
    const url = inject('testDatabaseUrl');
    const unnamed = await openDatabase({ databaseUrl: url || undefined, poolSize: 1, namedStatements: false });
    try {
      const text = namedStatement('database_test_unnamed', 'SELECT $1::integer * 3 AS tripled');
      const { rows } = await unnamed.db.executeQuery<{ tripled: number }>(CompiledQuery.raw(text, [7]));
      expect(rows).toEqual([{ tripled: 21 }]);
      const built = await unnamed.db.executeQuery(prepared('database_test_unnamed_built', sql<{ n: number }>`SELECT ${4}::integer AS n`.compile(unnamed.db)));
      expect(built.rows).toEqual([{ n: 4 }]);
      const left = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements WHERE name LIKE 'database_test_unnamed%'`.execute(unnamed.db);
      expect(left.rows).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });
});

describe('embedded PGlite', () => {
  const onPglite = inject('testDatabaseUrl') === undefined;
  it.skipIf(!onPglite)("runs on a thread of its own: the server's event loop keeps turning while the engine works", async () => {
    // A query that keeps the engine busy for a good while (hundreds of ms even on a quiet machine).
    const started = performance.now();
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      const { rows } = await sql<{ n: number }>`SELECT COUNT(*)::integer AS n FROM generate_series(1, 3000000) AS s(i) WHERE i % 7 = 0`.execute(database.db);
      expect(rows[0]?.n).toBe(428_571);
    } finally {
      clearInterval(ticker);
    }
    const elapsed = performance.now() - started;
    // In the server's thread the timer could not have run at all until the query ended.
    expect(elapsed).toBeGreaterThan(200);
    expect(longestGap).toBeLessThan(elapsed / 2);
  });

  it.skipIf(!onPglite)('answers SQL errors with their code and fields, as PostgreSQL does', async () => {
    await expect(sql`SELECT 1 / 0`.execute(database.db)).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});

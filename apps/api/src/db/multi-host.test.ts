import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { parseMultiHostUrl } from './multi-host.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

describe('libpq multi-host URLs', () => {
  it('reads what pg_autoctl show uri prints: two hosts, no user, read-write, sslmode', () => {
    const url = parseMultiHostUrl('postgres://node1:5432,node2:5433/kestrel?target_session_attrs=read-write&sslmode=require');
    expect(url?.hosts).toEqual([
      { host: 'node1', port: 5432 },
      { host: 'node2', port: 5433 },
    ]);
    expect(url?.readWrite).toBe(true);
    expect(url?.sslmode).toBe('require');
    // No user in the URL: none in the per-host string either, so pg uses the default user.
    expect(url?.hostUrl({ host: 'node2', port: 5433 })).toBe('postgres://node2:5433/kestrel?sslmode=require');
  });

  it('keeps a user and password, default ports and IPv6 addresses', () => {
    const url = parseMultiHostUrl('postgresql://kestrel:s%40cret@[::1]:5440,127.0.0.1/db?target_session_attrs=primary&application_name=x');
    expect(url?.hosts).toEqual([
      { host: '[::1]', port: 5440 },
      { host: '127.0.0.1', port: 5432 },
    ]);
    expect(url?.readWrite).toBe(true);
    expect(url?.hostUrl({ host: '127.0.0.1', port: 5432 })).toBe('postgresql://kestrel:s%40cret@127.0.0.1:5432/db?application_name=x');
  });

  it("keeps sslmode in each host's string (connection-settings.ts reads it with libpq's meanings)", () => {
    const url = parseMultiHostUrl('postgres://a:1,b:2/db?target_session_attrs=read-write&sslmode=prefer');
    expect(url?.sslmode).toBe('prefer');
    expect(url?.hostUrl({ host: 'a', port: 1 })).toBe('postgres://a:1/db?sslmode=prefer');
  });

  it('answers undefined for a single-host URL whose sslmode has no second try; one host with allow or prefer is tried twice here', () => {
    expect(parseMultiHostUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBeUndefined();
    expect(parseMultiHostUrl('postgres://127.0.0.1/db?sslmode=require')).toBeUndefined();
    expect(parseMultiHostUrl('postgres://127.0.0.1/db?target_session_attrs=any')?.readWrite).toBe(false);
    expect(parseMultiHostUrl('postgres://127.0.0.1/db?sslmode=prefer')?.hosts).toEqual([{ host: '127.0.0.1', port: 5432 }]);
    expect(parseMultiHostUrl('postgres://127.0.0.1/db', { sslmode: 'allow' })?.sslmode).toBe('allow');
    // A Unix-domain socket never uses TLS.
    expect(parseMultiHostUrl('postgres:///db?host=/var/run/postgresql&sslmode=prefer')).toBeUndefined();
  });

  it('refuses an sslmode libpq does not know', () => {
    expect(() => parseMultiHostUrl('postgres://a,b/db?sslmode=no-verify')).toThrow('DATABASE_URL: sslmode=no-verify is not one of disable, allow, prefer, require, verify-ca, verify-full');
  });

  it('refuses session attributes it cannot honour, rather than connecting anywhere', () => {
    expect(() => parseMultiHostUrl('postgres://a,b/db?target_session_attrs=standby')).toThrow('target_session_attrs=standby is not supported');
  });

  it('a read-only transaction error counts as the database being unavailable (503, try again)', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }))).toBe(true);
  });
});

// Two real PostgreSQL servers of our own (initdb/pg_ctl as the postgres user, ports 5446 and
// 5447): the first starts as the primary, the second read-only as a stand-in for a standby;
// then they swap. Needs the PostgreSQL 15 server binaries and root (to run them as postgres),
// so it runs only with KESTREL_TEST_TWO_SERVERS=1 and never in `npm test`.
const BIN = '/usr/lib/postgresql/15/bin';
const twoServers = process.env.KESTREL_TEST_TWO_SERVERS === '1';

function asPostgres(args: string[]): void {
  execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe' });
}

describe.skipIf(!twoServers)('following the primary over two real servers (only with KESTREL_TEST_TWO_SERVERS=1)', () => {
  const root = twoServers ? mkdtempSync(path.join(tmpdir(), 'kestrel-two-servers-')) : '';
  const nodes = [
    { dir: path.join(root, 'a'), port: 5446 },
    { dir: path.join(root, 'b'), port: 5447 },
  ];
  const setReadOnly = (node: (typeof nodes)[number], readOnly: boolean) =>
    asPostgres([`${BIN}/psql`, '-h', '127.0.0.1', '-p', String(node.port), '-d', 'postgres', '-qc', `ALTER SYSTEM SET default_transaction_read_only = ${readOnly ? 'on' : 'off'}`, '-c', 'SELECT pg_reload_conf()']);
  const start = (node: (typeof nodes)[number]) =>
    asPostgres([`${BIN}/pg_ctl`, '-D', node.dir, '-w', '-l', path.join(node.dir, 'log'), '-o', `-p ${node.port} -k ${node.dir} -c listen_addresses=127.0.0.1`, 'start']);
  const stop = (node: (typeof nodes)[number]) => spawnSync('runuser', ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', node.dir, '-m', 'immediate', 'stop'], { stdio: 'pipe' });

  beforeAll(() => {
    chmodSync(root, 0o777);
    for (const node of nodes) {
      asPostgres([`${BIN}/initdb`, '-D', node.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
      start(node);
    }
    setReadOnly(nodes[1]!, true);
  });
  afterAll(() => {
    for (const node of nodes) stop(node);
    rmSync(root, { recursive: true, force: true });
  });

  const url = `postgres://postgres@127.0.0.1:${nodes[0]?.port},127.0.0.1:${nodes[1]?.port}/postgres?target_session_attrs=read-write&sslmode=disable`;
  const port = (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
    sql<{ port: number }>`SELECT current_setting('port')::integer AS port`.execute(db).then((result) => result.rows[0]?.port);

  it('writes to the writable host, then to the other one once they swap, without reopening', async () => {
    const database = await openDatabase({ databaseUrl: url, poolSize: 4, timeouts: { connectMs: 2_000, statementMs: 5_000, idleInTransactionMs: 5_000 } });
    try {
      expect(await port(database.db)).toBe(5446);
      await sql`CREATE TABLE IF NOT EXISTS follow_test (n integer)`.execute(database.db);

      // A "failover": the primary turns read-only, the other host writable. The pool's idle
      // connection to 5446 is still open; its first write fails as unavailable (503) and the
      // host is dropped.
      setReadOnly(nodes[0]!, true);
      setReadOnly(nodes[1]!, false);
      const failed = await sql`INSERT INTO follow_test VALUES (1)`.execute(database.db).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect(await port(database.db)).toBe(5447);
      await sql`CREATE TABLE follow_test (n integer)`.execute(database.db);
      await sql`INSERT INTO follow_test VALUES (2)`.execute(database.db);

      // The new primary dies outright; the old one is writable again: connections follow.
      stop(nodes[1]!);
      setReadOnly(nodes[0]!, false);
      const lost = await sql`SELECT 1`.execute(database.db).catch((error: unknown) => error);
      if (lost instanceof Error) expect(isDatabaseUnavailable(lost)).toBe(true);
      expect(await port(database.db)).toBe(5446);
      await sql`INSERT INTO follow_test VALUES (3)`.execute(database.db);
      const { rows } = await sql<{ n: number }>`SELECT n FROM follow_test ORDER BY n`.execute(database.db);
      expect(rows).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
    }
  });

  it('answers unavailable when every host is read-only, and recovers when one is writable', async () => {
    start(nodes[1]!);
    setReadOnly(nodes[0]!, true);
    setReadOnly(nodes[1]!, true);
    const database = await openDatabase({ databaseUrl: url, poolSize: 2, timeouts: { connectMs: 2_000, statementMs: 5_000, idleInTransactionMs: 5_000 } });
    try {
      const refused = await sql`SELECT 1`.execute(database.db).catch((error: unknown) => error);
      expect(refused).toMatchObject({ message: 'No database host is a writable primary now (target_session_attrs=read-write)' });
      expect(isDatabaseUnavailable(refused)).toBe(true);
      setReadOnly(nodes[1]!, false);
      expect(await port(database.db)).toBe(5447);
    } finally {
      await database.close();
    }
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { freePort } from '../../test/processes.ts';
import { hostConnection, type ConnectionDefaults } from './connection-settings.ts';
import { openDatabase } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

describe("a database URL read with libpq's meanings", () => {
  const ssl = (url: string, defaults?: ConnectionDefaults, secondTry?: boolean) => hostConnection(url, defaults, secondTry).ssl;

  it('sslmode: disable is plain, require encrypts without verifying, verify-full verifies chain and host name', () => {
    expect(ssl('postgres://h/db?sslmode=disable')).toBe(false);
    expect(ssl('postgres://h/db?sslmode=require')).toEqual({ rejectUnauthorized: false });
    // An empty options object: Node's defaults, which verify the chain and the host name.
    expect(ssl('postgres://h/db?sslmode=verify-full')).toEqual({});
  });

  it('allow tries plain, then TLS without verifying; prefer tries TLS without verifying, then plain', () => {
    expect(ssl('postgres://h/db?sslmode=allow')).toBe(false);
    expect(ssl('postgres://h/db?sslmode=allow', {}, true)).toEqual({ rejectUnauthorized: false });
    expect(ssl('postgres://h/db?sslmode=prefer')).toEqual({ rejectUnauthorized: false });
    expect(ssl('postgres://h/db?sslmode=prefer', {}, true)).toBe(false);
  });

  it('without an sslmode: PGSSLMODE, else plain as pg makes it; a Unix socket never uses TLS', () => {
    expect(ssl('postgres://h/db')).toBeUndefined();
    expect(ssl('postgres://h/db', { sslmode: 'require' })).toEqual({ rejectUnauthorized: false });
    expect(ssl('postgres://h/db?sslmode=disable', { sslmode: 'require' })).toBe(false);
    expect(ssl('postgres:///db?host=/var/run/postgresql&sslmode=require')).toBe(false);
  });

  it("sslrootcert: its certificate is the CA; require then checks the chain (libpq's verify-ca), verify-ca needs it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-rootcert-'));
    try {
      const file = path.join(dir, 'root.crt');
      writeFileSync(file, 'CERTIFICATE TEXT');
      for (const mode of ['require', 'verify-ca']) {
        const connection = hostConnection(`postgres://h/db?sslmode=${mode}&sslrootcert=${encodeURIComponent(file)}`);
        expect(connection.ssl).toMatchObject({ ca: 'CERTIFICATE TEXT' });
        // The chain is checked (rejectUnauthorized is not turned off); the host name is not.
        expect(connection.ssl).not.toHaveProperty('rejectUnauthorized');
        expect(connection.ssl).toHaveProperty('checkServerIdentity');
      }
      expect(hostConnection(`postgres://h/db?sslmode=verify-full&sslrootcert=${encodeURIComponent(file)}`).ssl).toEqual({ ca: 'CERTIFICATE TEXT' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => hostConnection('postgres://h/db?sslmode=verify-ca')).toThrow('Using sslmode=verify-ca requires specifying a CA with sslrootcert');
  });

  it('refuses an sslmode libpq does not know, and takes uselibpqcompat=true in the URL as given', () => {
    expect(() => hostConnection('postgres://h/db?sslmode=no-verify')).toThrow('DATABASE_URL: sslmode=no-verify is not one of disable, allow, prefer, require, verify-ca, verify-full');
    expect(hostConnection('postgres://h/db?uselibpqcompat=true&sslmode=require')).toMatchObject({ host: 'h', database: 'db', ssl: { rejectUnauthorized: false } });
  });

  it("the role: the URL's user, else PGUSER, else none (pg's default); other parameters are kept", () => {
    expect(hostConnection('postgres://kestrel:s%40cret@h:5433/db', { user: 'other' })).toMatchObject({ user: 'kestrel', password: 's@cret', host: 'h', port: 5433, database: 'db' });
    expect(hostConnection('postgres://h/db', { user: 'postgres' }).user).toBe('postgres');
    const bare = hostConnection('postgres://h/db?application_name=x');
    expect(bare).not.toHaveProperty('user');
    expect(bare).not.toHaveProperty('password');
    expect(bare).toMatchObject({ application_name: 'x' });
  });
});

const quick = { connectMs: 3_000, statementMs: 10_000, idleInTransactionMs: 10_000 };

/** One session on `url` through openDatabase: its role and whether it is encrypted (pg_stat_ssl). */
async function session(url: string, connectionDefaults?: ConnectionDefaults): Promise<{ user: string; ssl: boolean }> {
  const database = await openDatabase({ databaseUrl: url, connectionDefaults, poolSize: 1, timeouts: quick });
  try {
    const { rows } = await sql<{ user: string; ssl: boolean }>`SELECT current_user AS "user", ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()`.execute(database.db);
    return rows[0]!;
  } finally {
    await database.close();
  }
}

const refusal = (url: string, connectionDefaults?: ConnectionDefaults) =>
  session(url, connectionDefaults).then(
    () => {
      throw new Error(`${url} connected; it should have been refused`);
    },
    (error: unknown) => error as Error,
  );

// The user-less URL `pg_autoctl show uri` prints, with PGUSER, on the suite's PostgreSQL.
const suiteUrl = inject('testDatabaseUrl');
describe.skipIf(!suiteUrl)('PGUSER with a URL that names no user (on PostgreSQL: runs when DATABASE_URL is set)', () => {
  it('connects as PGUSER, read by the settings; a user in the URL wins', async () => {
    const withUser = new URL(suiteUrl!);
    const role = decodeURIComponent(withUser.username);
    const userless = new URL(suiteUrl!);
    userless.username = '';
    userless.password = '';
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-pguser-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(64), DATABASE_URL: userless.toString(), PGUSER: role });
      expect(config.databaseConnectionDefaults.user).toBe(role);
      expect((await session(config.databaseUrl!, config.databaseConnectionDefaults)).user).toBe(role);
      expect((await session(withUser.toString(), { user: 'no_such_role' })).user).toBe(role);
      const refused = await refusal(userless.toString(), { user: 'no_such_role' });
      expect(refused.message).toContain('role "no_such_role" does not exist');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// A throw-away PostgreSQL 15 of this file's own with TLS on (a self-signed certificate for the
// name "localhost" only), trust authentication, and a database `tls_only` that refuses plain
// connections (pg_hba.conf), on a free loopback port; stopped and deleted afterwards. As root
// the server runs as the postgres user (PostgreSQL refuses root).
const BIN = '/usr/lib/postgresql/15/bin';
const haveServer = existsSync(`${BIN}/initdb`);

function asPostgres(args: string[]): void {
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe' });
  else execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
}

const tlsTitle = haveServer ? 'sslmode against a PostgreSQL 15 of its own with TLS on' : `sslmode against a PostgreSQL 15 with TLS on: skipped, ${BIN}/initdb is absent`;
describe.skipIf(!haveServer)(tlsTitle, () => {
  const root = haveServer ? mkdtempSync(path.join(tmpdir(), 'kestrel-tls-server-')) : '';
  const data = path.join(root, 'data');
  const cert = path.join(data, 'server.crt');
  let port = 0;
  let postmaster = 0;
  const url = (database: string, query: string, host = '127.0.0.1') => `postgres://postgres@${host}:${port}/${database}?${query}`;

  beforeAll(async () => {
    chmodSync(root, 0o777);
    asPostgres([`${BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    asPostgres(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', path.join(data, 'server.key'), '-out', cert]);
    asPostgres(['chmod', '600', path.join(data, 'server.key')]);
    // First matching line wins: tls_only refuses plain connections; everything else is trusted either way.
    writeFileSync(path.join(data, 'pg_hba.conf'), ['local all all trust', 'hostnossl tls_only all 127.0.0.1/32 reject', 'host all all 127.0.0.1/32 trust', ''].join('\n'));
    // In postgresql.conf, not on the command line, so that ALTER SYSTEM can turn it off below.
    appendFileSync(path.join(data, 'postgresql.conf'), '\nssl = on\n');
    port = await freePort();
    asPostgres([`${BIN}/pg_ctl`, '-D', data, '-w', '-l', path.join(root, 'server.log'), '-o', `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`, 'start']);
    postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    asPostgres([`${BIN}/psql`, '-h', root, '-p', String(port), '-d', 'postgres', '-qc', 'CREATE DATABASE tls_only']);
  });

  afterAll(() => {
    if (postmaster) {
      const stopped = spawnSync('runuser', ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', data, '-m', 'fast', '-w', 'stop'], { stdio: 'pipe' });
      if (stopped.status !== 0) {
        try {
          process.kill(postmaster, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('require connects to the self-signed server, encrypted (pg_stat_ssl.ssl = true)', async () => {
    expect(await session(url('postgres', 'sslmode=require'))).toEqual({ user: 'postgres', ssl: true });
  });

  it('verify-full refuses the self-signed certificate with a clear error, which is not "unavailable" (start-up ends at once)', async () => {
    const refused = await refusal(url('postgres', 'sslmode=verify-full'));
    expect(refused.message).toBe(
      "PostgreSQL's TLS certificate was refused: self-signed certificate. sslmode=verify-full checks its chain and host name, verify-ca its chain: " +
        'give the certificate of its CA as sslrootcert=<file>, or use sslmode=require to encrypt without checking it.',
    );
    expect(refused).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(isDatabaseUnavailable(refused)).toBe(false);
  });

  it('disable connects unencrypted', async () => {
    expect(await session(url('postgres', 'sslmode=disable'))).toEqual({ user: 'postgres', ssl: false });
  });

  it('with sslrootcert: verify-ca (and require) check the chain only; verify-full also the host name', async () => {
    const rootcert = `sslrootcert=${encodeURIComponent(cert)}`;
    expect((await session(url('postgres', `sslmode=verify-ca&${rootcert}`))).ssl).toBe(true);
    expect((await session(url('postgres', `sslmode=require&${rootcert}`))).ssl).toBe(true);
    // The certificate names "localhost", not 127.0.0.1.
    const mismatch = await refusal(url('postgres', `sslmode=verify-full&${rootcert}`));
    expect(mismatch.message).toContain("PostgreSQL's TLS certificate was refused: Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list");
    expect((await session(url('postgres', `sslmode=verify-full&${rootcert}`, 'localhost'))).ssl).toBe(true);
  });

  it('allow: plain where plain is accepted, TLS where the server refuses plain', async () => {
    expect((await session(url('postgres', 'sslmode=allow'))).ssl).toBe(false);
    expect((await session(url('tls_only', 'sslmode=allow'))).ssl).toBe(true);
    const plain = await refusal(url('tls_only', 'sslmode=disable'));
    expect(plain.message).toContain('no encryption');
  });

  it('PGSSLMODE applies to a URL without sslmode; the multi-host form reads sslmode the same way', async () => {
    expect((await session(`postgres://127.0.0.1:${port}/postgres`, { user: 'postgres', sslmode: 'require' })).ssl).toBe(true);
    expect(await session(`postgres://127.0.0.1:${port}/postgres`, { user: 'postgres' })).toEqual({ user: 'postgres', ssl: false });
    expect((await session(`postgres://postgres@127.0.0.1:1,127.0.0.1:${port}/postgres?target_session_attrs=read-write&sslmode=require`)).ssl).toBe(true);
  });

  it('prefer: TLS while the server has it; plain once TLS is turned off (where require is refused)', async () => {
    expect((await session(url('postgres', 'sslmode=prefer'))).ssl).toBe(true);
    asPostgres([`${BIN}/psql`, '-h', root, '-p', String(port), '-d', 'postgres', '-qc', 'ALTER SYSTEM SET ssl = off', '-c', 'SELECT pg_reload_conf()']);
    // The reload is asynchronous: wait until a new session sees it.
    const sslSetting = async () => {
      const database = await openDatabase({ databaseUrl: url('postgres', 'sslmode=disable'), poolSize: 1, timeouts: quick });
      try {
        return (await sql<{ ssl: string }>`SHOW ssl`.execute(database.db)).rows[0]?.ssl;
      } finally {
        await database.close();
      }
    };
    for (let i = 0; i < 50 && (await sslSetting()) !== 'off'; i++) await sleep(100);
    expect((await session(url('postgres', 'sslmode=prefer'))).ssl).toBe(false);
    const required = await refusal(url('postgres', 'sslmode=require'));
    expect(required.message).toBe('The server does not support SSL connections');
  });
});

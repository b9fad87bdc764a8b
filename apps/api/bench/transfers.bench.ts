/**
 * `npm run bench`: transfer throughput and latency over real HTTP (load from a separate
 * autocannon process), on PostgreSQL and on embedded PGlite, next to the ceiling: pgbench's
 * one-statement transfer on the same database in the same run, and the ledger's statements
 * as bare SQL through `pg`. Prints tables; never passes or fails anything (exit 0 unless it
 * crashes). Loopback only; every phase is bounded by time (bare SQL also by a transfer cap).
 *
 * Settings (environment): DATABASE_URL (the PostgreSQL server; default the local one),
 * BENCH_SECONDS (length of each measured phase, default 3), PGBENCH (default /usr/bin/pgbench), BENCH_DATABASES
 * (`postgres,pglite` by default), BENCH_PROFILE (a directory: write a CPU profile of the
 * main thread for every measured HTTP and bare-SQL phase), BENCH_ONLY=lists (only the
 * 100,000-row list rows, on a small fixture: a quick check of them), BENCH_ONLY=pgbouncer
 * (only the pooler rows, PostgreSQL: random transfers at 8 and 32 clients directly with named
 * statements on and off and through PgBouncer in transaction mode; as root, PgBouncer on
 * KESTREL_PGBOUNCER_PORT, default 6442; BENCH_POOLER=0 leaves them out of the whole bench).
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { verifyLedger } from '../src/modules/ledger/verify.ts';
import { runBare } from './bare-sql.ts';
import { LEAN_SCRIPT, leanSchema, pgbenchAvailable, PGBENCH, runPgbench } from './pgbench.ts';
import { createFixture, type BenchAccount, type Fixture } from './fixture.ts';
import { cpuMsOf, rssMiBOf, startSeparateServer } from './separate-server.ts';
import { createHotStore, HOT_STORE_ROWS } from './hot-store.ts';
import { BIG_LIST_ROWS, bigListReads, runBigListRead, seedBigLinkList } from './big-list.ts';
import { topFrames, type CpuProfile } from './profile-summary.ts';
import { LoadGenerator } from './load.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';
import type { BenchClient, LoadResult } from './load-protocol.ts';
import { cpuShare, rate, readCpuTicks, rowFrom, table, threadMsPerOp, type Row } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const PHASE_MS = Math.max(1, SECONDS) * 1000;
const MAX_PER_PHASE = 200_000;
const LEVELS = [1, 8, 32, 64] as const;
const ACCOUNTS = 10_000;
const CLIENT_USERS = 64;
/** Accounts each client sends from in the measured phases (their TPINs are warmed first). */
const SENDERS_PER_CLIENT = 8;
/** Never-used accounts per client user for the single-client cold figure; the rest of each user's accounts are for the 8-client one. */
const COLD1_PER_CLIENT = 40;
/** API processes in the separate-server rows (PostgreSQL only). */
const WEB_CONCURRENCIES = [1, 2] as const;
const SEPARATE_LEVELS = [8, 32] as const;
const HISTORY_TRANSACTIONS = 1_000;
/** The page the web app asks for. */
const LIST_PAGE = 50;
const OPENING_CENTS = 1_000_000;
const TPIN = 4321;
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_PROFILE) : undefined;

type Kind = 'postgres' | 'pglite';
const LEAN_ROW = 'pgbench lean reference (one statement, primary keys only), random pairs';
const OURS_ROW = 'pgbench one-statement transfer, random pairs';

/**
 * Runs a measured phase, adding how busy the main thread (the server) and the machine were.
 * With BENCH_PROFILE=<directory>, the main thread's CPU profile of the phase is written
 * there as <name>.cpuprofile (open it in Chrome DevTools or speedscope).
 */
async function measured(make: () => Promise<Row>, profileName?: string, always?: { dir: string; top: (lines: string[]) => void }): Promise<Row> {
  const profileDir = always?.dir ?? PROFILE_DIR;
  const profiler = profileDir && profileName && (always || PROFILE_DIR) ? await startProfile() : undefined;
  const loop = performance.eventLoopUtilization();
  const ticks = readCpuTicks();
  let rss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    rss = Math.max(rss, process.memoryUsage.rss());
  }, 100);
  let row: Row;
  try {
    row = await make();
  } finally {
    clearInterval(sampler);
  }
  const result = {
    ...row,
    mainLoopBusy: performance.eventLoopUtilization(loop).utilization,
    cpu: cpuShare(ticks, readCpuTicks()),
    rssMiB: Math.max(rss, process.memoryUsage.rss()) / 2 ** 20,
  };
  if (profiler && profileDir && profileName) {
    const file = path.join(profileDir, `${profileName}.cpuprofile`);
    const profile = await profiler.stop(file);
    progress(`CPU profile written to ${file}`);
    always?.top(topFrames(profile, 15));
  }
  return result;
}

async function startProfile(): Promise<{ stop(file: string): Promise<CpuProfile> }> {
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      return profile as CpuProfile;
    },
  };
}

function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** A table row from the load generator's answer. */
function rowOf(workload: string, clients: number | string, result: LoadResult): Row {
  return { workload, clients, count: result.count, seconds: result.elapsedMs / 1000, p50: result.p50, p99: result.p99, failures: result.failures };
}

function load(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

interface Storage {
  kind: Kind;
  /** What openDatabase takes. */
  databaseUrl?: string;
  pgliteDir?: string;
  label: string;
  dataDir: string;
  dispose(): Promise<void>;
}

async function prepareStorage(kind: Kind): Promise<Storage> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kestrel-bench-'));
  if (kind === 'pglite') {
    return {
      kind,
      pgliteDir: path.join(dataDir, 'db'),
      label: `PGlite in ${dataDir}`,
      dataDir,
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.DATABASE_URL || DEFAULT_POSTGRES;
  const { name, url } = await createScratchDatabase(adminUrl, 'kestrel_bench');
  return {
    kind,
    databaseUrl: url,
    label: `PostgreSQL, fresh database ${name} on ${new URL(url).host}`,
    dataDir,
    dispose: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        // A closed pool's connections finish closing a moment after pool.end() resolves;
        // wait for them rather than terminating them under their clients' feet.
        for (let attempt = 0; ; attempt++) {
          try {
            await cleanup.query(attempt < 50 ? `DROP DATABASE IF EXISTS ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await cleanup.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A `pg` pool on the bench database: a server pool of `max`, or PGlite's single connection. */
async function barePool(storage: Storage, max: number): Promise<{ pool: pg.Pool; close(): Promise<void> }> {
  if (storage.databaseUrl) {
    const pool = new pg.Pool({ connectionString: storage.databaseUrl, max });
    pool.on('error', (error) => progress(`bare-SQL pool: ${error.message}`));
    // Open every connection before the clock starts.
    const clients = await Promise.all(Array.from({ length: max }, () => pool.connect()));
    for (const client of clients) client.release();
    return { pool, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const pglite = await PGlite.create(storage.pgliteDir);
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
  return {
    pool,
    close: async () => {
      await pool.end();
      await pglite.close();
    },
  };
}

interface SenderPlan {
  /** Per client user: the accounts it sends from in the measured phases. */
  pool: BenchAccount[][];
  /** Per client user: never-used accounts for the single-client cold figure (any connection sends for any user). */
  cold1: BenchAccount[][];
  /** Per client user: never-used accounts for the 8-client cold figure (thousands: enough for a phase as long as a warm one). */
  cold8: BenchAccount[][];
}

function planSenders(fixture: Fixture): SenderPlan {
  const own = fixture.users.map((user) => user.accounts.filter((a) => a.id !== fixture.hot.id && a.id !== fixture.history.id));
  const slice = (from: number, n: number) => own.map((accounts) => accounts.slice(from, from + n));
  return {
    pool: slice(0, SENDERS_PER_CLIENT),
    cold1: slice(SENDERS_PER_CLIENT, COLD1_PER_CLIENT),
    cold8: slice(SENDERS_PER_CLIENT + COLD1_PER_CLIENT, ACCOUNTS),
  };
}

function clientsFor(fixture: Fixture, senders: BenchAccount[][]): BenchClient[] {
  return fixture.users.map((user, i) => ({ token: user.token, senders: (senders[i] ?? []).map((a) => a.userName) }));
}

type TransferLoadFn = (
  senders: BenchAccount[][],
  concurrency: number,
  options?: { plan?: 'cycle' | 'once' | 'fresh'; durationMs?: number; baseUrl?: string },
) => Promise<LoadResult>;

/**
 * Random pairs against the API started as a separate server (src/server.ts) with
 * `webConcurrency` processes. The bench process only drives it, so "main thread" does not
 * apply: the note gives the server processes' CPU time per transfer, and the RSS column
 * the largest of them.
 */
async function separateServerRows(
  databaseUrl: string,
  secretKey: string,
  dataDir: string,
  webConcurrency: number,
  transferLoad: TransferLoadFn,
  senders: BenchAccount[][],
): Promise<Row[]> {
  progress(`postgres: starting the API as separate processes, WEB_CONCURRENCY=${webConcurrency}`);
  const server = await startSeparateServer({ databaseUrl, secretKey, dataDir: path.join(dataDir, `web-concurrency-${webConcurrency}`), webConcurrency });
  const rows: Row[] = [];
  try {
    // Warm-up, as for the in-process server: each process's pool and JIT, each sender's first transfer.
    await transferLoad(senders, CLIENT_USERS, { plan: 'once', durationMs: 120_000, baseUrl: server.baseUrl });
    await transferLoad(senders, CLIENT_USERS, { durationMs: Math.min(PHASE_MS, 3000), baseUrl: server.baseUrl });
    for (const level of SEPARATE_LEVELS) {
      progress(`postgres: HTTP random pairs, ${level} clients, WEB_CONCURRENCY=${webConcurrency}`);
      const pids = server.pids();
      const cpuBefore = pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
      const ticks = readCpuTicks();
      let rss = 0;
      const sample = () => {
        for (const pid of pids) rss = Math.max(rss, rssMiBOf(pid));
      };
      const sampler = setInterval(sample, 100);
      let result: LoadResult;
      try {
        result = await transferLoad(senders, level, { baseUrl: server.baseUrl });
      } finally {
        clearInterval(sampler);
      }
      sample();
      const cpuMs = pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0) - cpuBefore;
      const processes = webConcurrency > 1 ? `the primary and ${webConcurrency} workers` : 'one process';
      rows.push({
        ...rowOf(`HTTP, random pairs, separate server, WEB_CONCURRENCY=${webConcurrency}`, level, result),
        cpu: cpuShare(ticks, readCpuTicks()),
        rssMiB: rss,
        note: `server CPU ${result.count ? (cpuMs / result.count).toFixed(2) : '–'} ms per transfer (${processes})`,
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}

const POOLER_LEVELS = [8, 32] as const;
/** PgBouncer's server connections for the database: the API pool's size, so only the pooler differs. */
const PGBOUNCER_POOL = 20;
const pgbouncerScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/ha/pgbouncer.sh');

function pgbouncerVersion(): string | undefined {
  try {
    return execFileSync('pgbouncer', ['--version'], { encoding: 'utf8' }).split('\n')[0]?.trim();
  } catch {
    return undefined;
  }
}

/** PgBouncer in transaction mode in front of `databaseUrl` (scripts/ha/pgbouncer.sh, as root): its URL and how to stop it. */
async function startPgbouncer(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(databaseUrl);
  const port = process.env.KESTREL_PGBOUNCER_PORT ?? '6442';
  const env = {
    ...process.env,
    KESTREL_PGBOUNCER_DIR: `/tmp/kestrel-pgbouncer-bench-${process.pid}`,
    KESTREL_PGBOUNCER_PORT: port,
    KESTREL_PGBOUNCER_TARGET: `${target.hostname}:${target.port || '5432'}`,
    KESTREL_PGBOUNCER_POOL: String(PGBOUNCER_POOL),
  };
  const run = promisify(execFile);
  await run('bash', [pgbouncerScript, 'start'], { env });
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    stop: async () => {
      await run('bash', [pgbouncerScript, 'stop'], { env });
      rmSync(env.KESTREL_PGBOUNCER_DIR, { recursive: true, force: true });
    },
  };
}

/**
 * Random transfers at 8 and 32 clients through an in-process API on a pool of its own: directly
 * with named prepared statements on (the default) and off, and through PgBouncer in transaction
 * mode with them off (DATABASE_NAMED_STATEMENTS=off; README "Behind PgBouncer"). Each variant is
 * warmed up first; PgBouncer rows are left out, with a note, when pgbouncer is not installed.
 */
async function poolerRows(databaseUrl: string, secretKey: string, dataDir: string, transferLoad: TransferLoadFn, senders: BenchAccount[][], notes: string[]): Promise<Row[]> {
  const variants: { name: string; url: string; named: boolean }[] = [
    { name: 'direct, named statements on', url: databaseUrl, named: true },
    { name: 'direct, named statements off', url: databaseUrl, named: false },
  ];
  const version = pgbouncerVersion();
  let bouncer: Awaited<ReturnType<typeof startPgbouncer>> | undefined;
  if (!version) notes.push('pgbouncer is not installed: the PgBouncer rows are left out.');
  else {
    try {
      bouncer = await startPgbouncer(databaseUrl);
      variants.push({ name: `${version}, transaction mode, ${PGBOUNCER_POOL} server connections, named statements off`, url: bouncer.url, named: false });
    } catch (error) {
      notes.push(`PgBouncer did not start (scripts/ha/pgbouncer.sh runs as root): ${(error as { stderr?: string }).stderr?.trim() ?? String(error)}`);
    }
  }
  const rows: Row[] = [];
  try {
    for (const variant of variants) {
      progress(`postgres: pooler rows, ${variant.name}`);
      const database = await openDatabase({ databaseUrl: variant.url, namedStatements: variant.named });
      const config = {
        ...loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SECRET_KEY: secretKey, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }),
        databaseUrl: variant.url,
        databaseNamedStatements: variant.named,
      };
      const app = await buildApp({ config, db: database.db, logger: false, webDist: path.join(dataDir, 'no-web') });
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const address = app.server.address();
        if (!address || typeof address === 'string') throw new Error('the server has no address');
        const baseUrl = `http://127.0.0.1:${address.port}`;
        // Warm-up, the same for each: the first transfer from every sending account (this pool's
        // connections and their prepared statements, the senders' rows), then the JIT.
        await transferLoad(senders, CLIENT_USERS, { plan: 'once', durationMs: 120_000, baseUrl });
        await transferLoad(senders, CLIENT_USERS, { durationMs: Math.min(PHASE_MS, 3000), baseUrl });
        for (const level of POOLER_LEVELS) {
          progress(`postgres: HTTP random pairs, ${level} clients, ${variant.name}`);
          rows.push(await measured(async () => rowOf(`HTTP, random pairs, ${variant.name}`, level, await transferLoad(senders, level, { baseUrl })), `postgres-pooler-${rows.length}`));
        }
      } finally {
        await app.close();
        await database.close();
      }
    }
  } finally {
    await bouncer?.stop();
  }
  return rows;
}

/** BENCH_ONLY=pgbouncer: the pooler rows alone, on PostgreSQL, on a fixture just big enough for them. */
async function benchPoolerOnly(): Promise<void> {
  const storage = await prepareStorage('postgres');
  progress(`postgres: ${storage.label}`);
  const loadBefore = load();
  let database: DatabaseHandle | undefined;
  const generator = new LoadGenerator();
  try {
    const secretKey = randomBytes(32).toString('hex');
    database = await openDatabase({ databaseUrl: storage.databaseUrl });
    await migrate(database.db);
    const version = (await sql<{ version: string }>`SELECT version() AS version`.execute(database.db)).rows[0]?.version.split(' on ')[0] ?? '?';
    const fixture = await createFixture(database.db, { accounts: 2_000, users: CLIENT_USERS, openingCents: OPENING_CENTS, tpin: TPIN, historyTransactions: 2, secretKey });
    await database.close();
    database = undefined;
    const senders = planSenders(fixture).pool;
    const recipients = fixture.accounts.filter((a) => a.id !== fixture.history.id).map((a) => a.userName);
    const transferLoad: TransferLoadFn = (from, concurrency, options = {}) =>
      generator.run({
        kind: 'transfer',
        baseUrl: options.baseUrl ?? '',
        concurrency,
        clients: clientsFor(fixture, from),
        plan: options.plan ?? 'cycle',
        recipients,
        tpin: fixture.tpin,
        durationMs: options.durationMs ?? PHASE_MS,
      });
    const notes: string[] = [];
    const rows = await poolerRows(storage.databaseUrl ?? '', secretKey, storage.dataDir, transferLoad, senders, notes);
    console.log(`\n## PostgreSQL — ${version}, pooler rows only (BENCH_ONLY=pgbouncer)\n`);
    console.log(`${storage.label}; ${fixture.accounts.length} accounts, ${CLIENT_USERS} client users; load average ${loadBefore} → ${load()}.\n`);
    console.log(table(rows, 'transfers/s'));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await generator.close();
    await database?.close();
    await storage.dispose();
  }
}

interface DatabaseResult {
  kind: Kind;
  label: string;
  version: string;
  setupSeconds: number;
  warmup: string[];
  transfers: Row[];
  reads: Row[];
  verify: string;
  notes: string[];
  loadAverage: string;
}

async function benchDatabase(kind: Kind): Promise<DatabaseResult> {
  const storage = await prepareStorage(kind);
  progress(`${kind}: ${storage.label}`);
  const loadBefore = load();
  let database: DatabaseHandle | undefined;
  const generator = new LoadGenerator();
  try {
    const setupStarted = performance.now();
    const secretKey = randomBytes(32).toString('hex');
    database = await openDatabase({ databaseUrl: storage.databaseUrl, pgliteDir: storage.pgliteDir });
    await migrate(database.db);
    const version = (await sql<{ version: string }>`SELECT version() AS version`.execute(database.db)).rows[0]?.version.split(' on ')[0] ?? '?';
    const fixture = await createFixture(database.db, {
      accounts: ACCOUNTS,
      users: CLIENT_USERS,
      openingCents: OPENING_CENTS,
      tpin: TPIN,
      historyTransactions: HISTORY_TRANSACTIONS,
      secretKey,
    });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    progress(`${kind}: migrated and wrote ${ACCOUNTS} accounts, ${CLIENT_USERS} client users and a ${HISTORY_TRANSACTIONS}-transaction history in ${setupSeconds.toFixed(1)} s`);

    const config = {
      ...loadConfig({ DATA_DIR: storage.dataDir, NODE_ENV: 'production', SECRET_KEY: secretKey, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }),
      databaseUrl: storage.databaseUrl,
    };
    const app = await buildApp({ config, db: database.db, logger: false, webDist: path.join(storage.dataDir, 'no-web') });
    // BENCH_PORT: the in-process server's port (the separate server takes the next one); default any free port.
    await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no address');
    const baseUrl = `http://127.0.0.1:${address.port}`;

    const plan = planSenders(fixture);
    const recipients = fixture.accounts.filter((a) => a.id !== fixture.history.id);
    const recipientNames = recipients.map((a) => a.userName);
    const transferLoad = (
      senders: BenchAccount[][],
      concurrency: number,
      options: { plan?: 'cycle' | 'once' | 'fresh'; hot?: boolean; durationMs?: number; idempotencyKeys?: boolean; baseUrl?: string } = {},
    ) =>
      generator.run({
        kind: 'transfer',
        baseUrl: options.baseUrl ?? baseUrl,
        concurrency,
        clients: clientsFor(fixture, senders),
        plan: options.plan ?? 'cycle',
        recipients: recipientNames,
        hotRecipient: options.hot ? fixture.hot.userName : undefined,
        tpin: fixture.tpin,
        idempotencyKeys: options.idempotencyKeys,
        durationMs: options.durationMs ?? PHASE_MS,
      });
    const historyOwner = fixture.users[fixture.history.owner];
    if (!historyOwner) throw new Error('history account without owner');
    const listPath = `/v1/transaction/account/${fixture.history.accountNumber}`;
    const summaryPath = `/v1/account/${fixture.history.accountNumber}/summary`;

    // Warm-up, not measured: (1) the first transfer from every sending account, at 32
    // clients: opens the API's database connections and loads each sender's rows into the
    // buffer cache; (2) random transfers and list reads until the JIT has compiled the hot paths.
    const warmup: string[] = [];
    progress(`${kind}: warm-up`);
    const poolSize = plan.pool.reduce((n, list) => n + list.length, 0);
    const first = await transferLoad(plan.pool, CLIENT_USERS, { plan: 'once', durationMs: 120_000 });
    progress(`${kind}: warm-up, JIT`);
    warmup.push(
      `first transfer from each of the ${poolSize} sending accounts (connection pool, JIT), 32 clients: ${first.count} ok in ${(first.elapsedMs / 1000).toFixed(1)} s`,
    );
    const jit = await transferLoad(plan.pool, CLIENT_USERS, { durationMs: Math.min(PHASE_MS, 3000) });
    const jit8 = await transferLoad(plan.pool, 8, { durationMs: Math.min(PHASE_MS, 2000) });
    const jitGets = await generator.run({ kind: 'get', baseUrl, concurrency: 1, path: listPath, token: historyOwner.token, durationMs: 2000 });
    warmup.push(`JIT: ${jit.count + jit8.count} random transfers at 32 and 8 clients, ${jitGets.count} transaction-list reads`);

    const transfers: Row[] = [];
    const notes: string[] = [];
    // Cold: every transfer is the first from its account (nothing about it cached in the
    // server; the TPIN is a keyed hash checked inside the transfer's one database call), for
    // as long as a warm phase, from thousands of accounts that have never sent.
    for (const [level, senders] of [
      [1, plan.cold1],
      [8, plan.cold8],
    ] as const) {
      progress(`${kind}: cold transfers, ${level} client${level === 1 ? '' : 's'} (${senders.reduce((n, list) => n + list.length, 0)} never-used accounts)`);
      const row = await measured(async () => {
        const cold = await transferLoad(senders, level, { plan: 'fresh' });
        const result = rowOf('HTTP, cold (first transfer of each account)', level, cold);
        if (cold.reusedSenders) result.note = `ran out of never-used accounts: ${cold.reusedSenders} transfers were not cold`;
        return result;
      }, `${kind}-http-cold-${level}`);
      transfers.push(row);
    }

    const reads: Row[] = [];
    for (const [name, readPath] of [
      [`GET /v1/transaction/account/{n}?limit=${LIST_PAGE} (a page, as the web asks)`, `${listPath}?limit=${LIST_PAGE}`],
      [`GET /v1/transaction/account/{n} (unpaged: the latest ${fixture.historyTransactions})`, listPath],
      ['GET /v1/account/{n}/summary (dashboard)', summaryPath],
    ] as const) {
      progress(`${kind}: ${name}, 8 clients`);
      let bytes = 0;
      const row = await measured(async () => {
        const result = await generator.run({ kind: 'get', baseUrl, concurrency: 8, path: readPath, token: historyOwner.token, durationMs: PHASE_MS });
        bytes = result.lastBodyBytes;
        return rowOf(name, 8, result);
      }, `${kind}-get-${reads.length}`);
      reads.push({ ...row, note: `${(bytes / 1024).toFixed(1)} KiB per answer` });
    }
    reads.push(...(await bigListRows(kind, database.db, generator, baseUrl, fixture.history, historyOwner, warmup)));

    for (const hot of [false, true]) {
      for (const level of LEVELS) {
        progress(`${kind}: HTTP ${hot ? 'hot recipient' : 'random pairs'}, ${level} client${level === 1 ? '' : 's'}`);
        transfers.push(
          await measured(
            async () => {
              const result = await transferLoad(plan.pool, level, { hot });
              return rowOf(`HTTP, ${hot ? 'hot recipient' : 'random pairs'}`, level, result);
            },
            `${kind}-http-${hot ? 'hot' : 'random'}-${level}`,
          ),
        );
      }
    }
    // The API in processes of its own, as production starts it, with 1 and 2 API processes
    // (WEB_CONCURRENCY; PostgreSQL only). Before the hot store: its callbacks would be sent.
    // BENCH_SEPARATE=0 leaves them out (their start-up takes minutes on a loaded machine).
    if (storage.databaseUrl && process.env.BENCH_SEPARATE !== '0') {
      for (const webConcurrency of WEB_CONCURRENCIES) {
        transfers.push(...(await separateServerRows(storage.databaseUrl, config.secretKey, storage.dataDir, webConcurrency, transferLoad, plan.pool)));
      }
    }
    // Beside the direct connection: named statements off, and PgBouncer in transaction mode (BENCH_POOLER=0 leaves them out).
    if (storage.databaseUrl && process.env.BENCH_POOLER !== '0') {
      transfers.push(...(await poolerRows(storage.databaseUrl, config.secretKey, storage.dataDir, transferLoad, plan.pool, notes)));
    }

    // The hot store: card, wallet and payment-link payments into one Approved store, whose
    // owner's wallet (and the card-clearing and fee-revenue accounts) are in every payment.
    const hotStore = await createHotStore(database.db, fixture, config.secretKey, baseUrl);
    const payers = fixture.users.map((user, i) => ({ token: user.token, accountNumbers: (plan.pool[i] ?? []).map((a) => a.accountNumber) }));
    const paymentLoads = {
      card: (concurrency: number, durationMs = PHASE_MS) => generator.run({ kind: 'card', baseUrl, concurrency, storeId: hotStore.storeId, storeKey: hotStore.storeKey, durationMs }),
      wallet: (concurrency: number, durationMs = PHASE_MS) =>
        generator.run({ kind: 'wallet', baseUrl, concurrency, storeId: hotStore.storeId, storeKey: hotStore.storeKey, payers, tpin: fixture.tpin, durationMs }),
      link: (concurrency: number, durationMs = PHASE_MS) => generator.run({ kind: 'link', baseUrl, concurrency, pRequestURLId: hotStore.pRequestURLId, durationMs }),
    };
    for (const [method, run] of Object.entries(paymentLoads)) {
      await run(8, 1500); // warm-up: the JIT, and the store's rows in the cache
      for (const level of [8, 32] as const) {
        progress(`${kind}: HTTP hot store ${method} payments, ${level} clients`);
        // The 32-client card phase is always profiled (the issue's hot-store profile); its top
        // frames go into the notes, the file stays in BENCH_PROFILE or the temporary directory.
        const profileTo = method === 'card' && level === 32 ? (PROFILE_DIR ?? storage.dataDir) : undefined;
        transfers.push(
          await measured(
            async () => rowOf(HOT_STORE_ROWS[method as keyof typeof HOT_STORE_ROWS], level, await run(level)),
            `${kind}-http-hot-store-${method}-${level}`,
            profileTo ? { dir: profileTo, top: (lines) => notes.push(`CPU profile of the ${kind} hot-store card phase at 32 clients, top frames by self time (share of the busy time):`, ...lines.map((line) => `- ${line}`)) } : undefined,
          ),
        );
      }
    }

    await app.close();
    await database.close();
    database = undefined;

    // The ceiling, on the same database, after the server has stopped: pgbench first.
    if (storage.databaseUrl) {
      if (!pgbenchAvailable()) {
        progress(`${kind}: pgbench not found (${PGBENCH}), ceiling skipped`);
        notes.push(`pgbench not found (${PGBENCH}), ceiling skipped`);
      } else {
        const ids = fixture.accounts.map((a) => a.ledgerAccountId);
        const lo = Math.min(...ids);
        const hi = Math.max(...ids);
        if (hi - lo + 1 !== ids.length) throw new Error('wallet ledger accounts are not contiguous');
        for (const hot of [false, true]) {
          for (const level of LEVELS) {
            progress(`${kind}: pgbench ${hot ? 'hot recipient' : 'random pairs'}, ${level} client${level === 1 ? '' : 's'}`);
            try {
              transfers.push(
                await measured(() => runPgbench({ databaseUrl: storage.databaseUrl ?? '', clients: level, seconds: SECONDS, lo, hi, hot: fixture.hot.ledgerAccountId, hotOnly: hot })),
              );
            } catch (error) {
              const message = `pgbench ${hot ? 'hot recipient' : 'random pairs'} at ${level} clients failed: ${(error as { stderr?: string }).stderr?.trim() ?? String(error)}`;
              progress(`${kind}: ${message}`);
              notes.push(message);
            }
          }
        }
        // The lean reference (primary keys only, no trigger, index or other constraint), in
        // tables of its own in the same database, at the same client counts, random pairs.
        const admin = new pg.Client({ connectionString: storage.databaseUrl });
        await admin.connect();
        await admin.query(leanSchema(ACCOUNTS, OPENING_CENTS));
        await admin.end();
        for (const level of LEVELS) {
          progress(`${kind}: pgbench lean reference, random pairs, ${level} client${level === 1 ? '' : 's'}`);
          transfers.push(
            await measured(() =>
              runPgbench({ databaseUrl: storage.databaseUrl ?? '', clients: level, seconds: SECONDS, lo: 1, hi: ACCOUNTS, hot: ACCOUNTS, hotOnly: false, script: LEAN_SCRIPT, workload: LEAN_ROW }),
            ),
          );
        }
      }
    } else {
      notes.push('PGlite has no pgbench (it has no network server): compare its HTTP rows with the PostgreSQL ones and with its bare-SQL rows.');
    }

    // The bare-SQL ceiling through `pg`.
    const ownerIds = fixture.users.map((u) => u.id);
    const slots = plan.pool.map((senders, i) => ({ senders, createdBy: ownerIds[i] ?? '' }));
    for (const hot of [false, true]) {
      for (const level of LEVELS) {
        progress(`${kind}: bare SQL ${hot ? 'hot recipient' : 'random pairs'}, ${level} client${level === 1 ? '' : 's'}`);
        const bare = await barePool(storage, level);
        try {
          await runBare(bare.pool, { concurrency: level, slots, recipients, hotRecipient: hot ? fixture.hot : undefined, durationMs: 500, maxTransfers: MAX_PER_PHASE });
          const clients = kind === 'pglite' ? `${level} (1 connection)` : level;
          transfers.push(
            await measured(async () => {
              const result = await runBare(bare.pool, {
                concurrency: level,
                slots,
                recipients,
                hotRecipient: hot ? fixture.hot : undefined,
                durationMs: PHASE_MS,
                maxTransfers: MAX_PER_PHASE,
              });
              return rowFrom(`bare SQL, ${hot ? 'hot recipient' : 'random pairs'}`, clients, result.latenciesMs, result.elapsedMs, result.failures);
            }, `${kind}-bare-${hot ? 'hot' : 'random'}-${level}`),
          );
        } finally {
          await bare.close();
        }
      }
    }

    progress(`${kind}: verifying the ledger`);
    database = await openDatabase({ databaseUrl: storage.databaseUrl, pgliteDir: storage.pgliteDir });
    const report = await verifyLedger(database.db);
    const wallets = await sql<{ total: number }>`SELECT COALESCE(SUM(balance_cents), 0)::bigint AS total FROM wallet_balances`.execute(database.db);
    const walletTotal = Number(wallets.rows[0]?.total ?? 0);
    // Money enters the wallets after the fixture only from card clearing (card payments, of the
    // store and of the link) and leaves them only as fees (to fee revenue).
    const system = await sql<{ cardClearing: number; feeRevenue: number }>`
      SELECT COALESCE(SUM(p.amount_cents) FILTER (WHERE la.system_code = 'card_clearing'), 0)::bigint AS card_clearing,
             COALESCE(SUM(p.amount_cents) FILTER (WHERE la.system_code = 'fee_revenue'), 0)::bigint AS fee_revenue
      FROM ledger_postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id`.execute(database.db);
    const expectedTotal = fixture.totalCents - Number(system.rows[0]?.cardClearing ?? 0) - Number(system.rows[0]?.feeRevenue ?? 0);
    const conserved = walletTotal === expectedTotal;
    const verify =
      report.problems.length === 0 && conserved
        ? `OK — ${report.transactions} ledger transactions, ${report.postings} postings, ${report.walletAccounts} wallets; every transaction sums to 0, every cached balance equals its postings, none negative; wallet total ${walletTotal} cents = opening total + card payments − fees`
        : `PROBLEMS — ${report.problems.length} ledger problems${report.problems.length ? `: ${report.problems.slice(0, 5).map((p) => `${p.kind} (${p.detail})`).join('; ')}` : ''}; wallet total ${walletTotal} cents, expected ${expectedTotal}`;
    progress(`${kind}: ledger ${verify.split(' ')[0]}`);
    return { kind, label: storage.label, version, setupSeconds, warmup, transfers, reads, verify, notes, loadAverage: `${loadBefore} → ${load()}` };
  } finally {
    await generator.close();
    await database?.close();
    await storage.dispose();
  }
}

/**
 * The 100,000-row list: that many payment-request links on one account, seeded set-based in
 * SQL, and its list page's first page and counters read at 8 clients.
 */
async function bigListRows(kind: Kind, db: DatabaseHandle['db'], generator: LoadGenerator, baseUrl: string, account: BenchAccount, owner: Fixture['users'][number], warmup: string[]): Promise<Row[]> {
  progress(`${kind}: seeding ${BIG_LIST_ROWS} payment-request links on one account (set-based)`);
  const seconds = await seedBigLinkList(db, account.id, owner.id);
  warmup.push(`${BIG_LIST_ROWS.toLocaleString('en-US')} payment-request links on one account, one INSERT … SELECT over generate_series: ${seconds.toFixed(1)} s`);
  const rows: Row[] = [];
  for (const read of bigListReads(account.accountNumber)) {
    progress(`${kind}: ${read.name}, 8 clients`);
    let bytes = 0;
    const row = await measured(async () => {
      const result = await runBigListRead(generator, baseUrl, owner.token, read, 8, PHASE_MS);
      bytes = result.lastBodyBytes;
      return rowOf(read.name, 8, result);
    }, `${kind}-big-list-${rows.length}`);
    rows.push({ ...row, note: `${(bytes / 1024).toFixed(1)} KiB per answer` });
  }
  return rows;
}

/** BENCH_ONLY=lists: the 100,000-row list rows alone, on a fixture just big enough for them. */
async function benchListsOnly(kind: Kind): Promise<void> {
  const storage = await prepareStorage(kind);
  progress(`${kind}: ${storage.label}`);
  let database: DatabaseHandle | undefined;
  const generator = new LoadGenerator();
  try {
    const secretKey = randomBytes(32).toString('hex');
    database = await openDatabase({ databaseUrl: storage.databaseUrl, pgliteDir: storage.pgliteDir });
    await migrate(database.db);
    const version = (await sql<{ version: string }>`SELECT version() AS version`.execute(database.db)).rows[0]?.version.split(' on ')[0] ?? '?';
    const fixture = await createFixture(database.db, { accounts: 4, users: 1, openingCents: OPENING_CENTS, tpin: TPIN, historyTransactions: 2, secretKey });
    const config = { ...loadConfig({ DATA_DIR: storage.dataDir, NODE_ENV: 'production', SECRET_KEY: secretKey, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }), databaseUrl: storage.databaseUrl };
    const app = await buildApp({ config, db: database.db, logger: false, webDist: path.join(storage.dataDir, 'no-web') });
    await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no address');
    const owner = fixture.users[fixture.history.owner];
    if (!owner) throw new Error('history account without owner');
    const notes: string[] = [];
    const rows = await bigListRows(kind, database.db, generator, `http://127.0.0.1:${address.port}`, fixture.history, owner, notes);
    await app.close();
    console.log(`\n## ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'} — ${version}, lists only (BENCH_ONLY=lists)\n`);
    for (const note of notes) console.log(`- ${note}`);
    console.log(`\nReads:\n`);
    console.log(table(rows, 'requests/s'));
  } finally {
    await generator.close();
    await database?.close();
    await storage.dispose();
  }
}

type Find = (workload: string, clients: number) => Row | undefined;

function finder(rows: Row[]): Find {
  return (workload, clients) => rows.find((r) => r.workload === workload && String(r.clients).split(' ')[0] === String(clients));
}

function pct(part: Row | undefined, whole: Row | undefined): string | undefined {
  return part && whole && rate(whole) > 0 ? `${((100 * rate(part)) / rate(whole)).toFixed(1)}%` : undefined;
}

function annotate(rows: Row[]): void {
  const find = finder(rows);
  for (const level of LEVELS) {
    for (const shape of ['random pairs', 'hot recipient'] as const) {
      const http = find(`HTTP, ${shape}`, level);
      if (!http) continue;
      const notes = [
        pct(http, find(`pgbench one-statement transfer, ${shape}`, level))?.concat(' of pgbench'),
        pct(http, find(LEAN_ROW, level))?.concat(' of lean pgbench'),
        pct(http, find(`bare SQL, ${shape}`, level))?.concat(' of bare SQL'),
      ];
      const random = find('HTTP, random pairs', level);
      if (shape === 'hot recipient' && random && rate(random) > 0) notes.unshift(`${(rate(http) / rate(random)).toFixed(2)}× random pairs`);
      http.note = notes.filter(Boolean).join('; ');
    }
    for (const webConcurrency of WEB_CONCURRENCIES) {
      const separate = find(`HTTP, random pairs, separate server, WEB_CONCURRENCY=${webConcurrency}`, level);
      const share = pct(separate, find('pgbench one-statement transfer, random pairs', level));
      if (separate && share) separate.note = `${separate.note ?? ''}; ${share} of pgbench`;
    }
    const random = find('HTTP, random pairs', level);
    for (const workload of Object.values(HOT_STORE_ROWS)) {
      const hotStore = find(workload, level);
      if (!hotStore || !random || rate(random) === 0) continue;
      hotStore.note = [
        `${(rate(hotStore) / rate(random)).toFixed(2)}× random transfers`,
        pct(hotStore, find(OURS_ROW, level))?.concat(' of pgbench'),
        pct(hotStore, find(LEAN_ROW, level))?.concat(' of lean pgbench'),
        workload === HOT_STORE_ROWS.link ? 'one request per payment' : 'latency per request (two per payment)',
      ]
        .filter(Boolean)
        .join('; ');
    }
    const ours = find(OURS_ROW, level);
    const lean = find(LEAN_ROW, level);
    if (ours && lean && rate(lean) > 0) ours.note = `${(rate(ours) / rate(lean)).toFixed(2)}× lean pgbench`;
  }
  const cold8 = find('HTTP, cold (first transfer of each account)', 8);
  const warm8 = find('HTTP, random pairs', 8);
  if (cold8 && warm8 && rate(warm8) > 0) cold8.note = `${(rate(cold8) / rate(warm8)).toFixed(2)}× warm (random pairs, 8 clients)`;
}

/** The figures of issue 21's aims table, from this run (ratios within the run). */
function aims(rows: Row[], postgresRows: Row[] | undefined): string[] {
  const find = finder(rows);
  const lines: string[] = [];
  const x = (a: Row | undefined, b: Row | undefined) => (a && b && rate(b) > 0 ? `${rate(a).toFixed(0)} vs ${rate(b).toFixed(0)}/s = ${(rate(a) / rate(b)).toFixed(2)}×` : undefined);
  const random8 = find('HTTP, random pairs', 8);
  const random32 = find('HTTP, random pairs', 32);
  const card8 = find(HOT_STORE_ROWS.card, 8);
  const card32 = find(HOT_STORE_ROWS.card, 32);
  const push = (text: string, figure: string | undefined) => figure && lines.push(`- ${text}: ${figure}`);
  push('hot-store card payments at 32 clients ÷ random transfers (aim ≥ 0.5×)', x(card32, random32));
  push('hot-store card payments 8 → 32 clients (aim: no drop)', card8 && card32 ? `${rate(card8).toFixed(0)} → ${rate(card32).toFixed(0)}/s` : undefined);
  push('hot-store wallet payments at 32 clients ÷ random transfers (aim ≥ 0.5×)', x(find(HOT_STORE_ROWS.wallet, 32), random32));
  push('hot-store link payments at 32 clients ÷ random transfers (aim ≥ 0.5×)', x(find(HOT_STORE_ROWS.link, 32), random32));
  const hot8 = find('HTTP, hot recipient', 8);
  const hot32 = find('HTTP, hot recipient', 32);
  push('hot recipient at 32 ÷ random pairs (aim ≥ 0.8×, no drop)', hot8 && hot32 ? `${x(hot32, random32) ?? '–'}; 8 → 32 clients ${rate(hot8).toFixed(0)} → ${rate(hot32).toFixed(0)}/s` : undefined);
  push('HTTP random transfers at 32 ÷ lean pgbench (aim ≥ 20 %)', x(random32, find(LEAN_ROW, 32)));
  push('pgbench on our schema ÷ lean pgbench, 32 clients (aim ≥ 0.6)', x(find(OURS_ROW, 32), find(LEAN_ROW, 32)));
  push('p99 at 8 / 32 clients, random transfers (aim ≤ 8 / ≤ 25 ms)', random8 && random32 ? `${random8.p99.toFixed(1)} / ${random32.p99.toFixed(1)} ms` : undefined);
  const pgRandom8 = postgresRows ? finder(postgresRows)('HTTP, random pairs', 8) : undefined;
  if (pgRandom8 !== random8) push('PGlite ÷ PostgreSQL over HTTP, 8 clients (aim ≥ 0.6×)', x(random8, pgRandom8));
  push('main-thread ms per operation, transfer (32) / hot-store card payment (32) (aim ≤ 0.35 / ≤ 1.0)', random32 && card32 ? `${threadMsPerOp(random32)} / ${threadMsPerOp(card32)}` : undefined);
  return lines;
}

async function main(): Promise<void> {
  const kinds = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',').map((k) => k.trim()) as Kind[];
  const started = performance.now();
  const cpu = os.cpus();
  const header = [
    '# Kestrel transfer benchmark',
    '',
    `Machine: ${cpu.length} CPU cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}. Load average at start: ${load()}.`,
    `Server: buildApp in this process, listening on 127.0.0.1 (logger off, NODE_ENV=production, API database pool as in production: 20 connections on PostgreSQL, 1 on PGlite).`,
    `Rate limits are off (config rateLimits=false): this is a load test from one address, which the per-address limits would otherwise throttle.`,
    `Clients: autocannon in a separate Node process (HTTP/1.1 over loopback, keep-alive, one request in flight per connection). At N connections the first N of ${CLIENT_USERS} users (each with its own session) send from their ${SENDERS_PER_CLIENT} accounts each, every account lent to one request at a time (no two transfers in flight debit one account, and every account takes its turn); random pairs: recipient drawn from ${ACCOUNTS - 1} accounts; hot recipient: every transfer to one account. Every transfer carries its own Idempotency-Key and an amount from 0.01 to 1.00 USD; TPINs are keyed hashes (as the product stores them); each measured phase runs ${SECONDS} s. Latencies are autocannon's (whole milliseconds).`,
    `pgbench (the ceiling, PostgreSQL only): ${pgbenchAvailable() ? PGBENCH : 'not found, ceiling skipped'}, a custom script whose one statement inserts the ledger transaction and its two postings and updates both balances (no HTTP), prepared, at the same client counts, on the same database after the server has stopped; and the lean reference: the same statement on a bare double-entry table set (primary keys only, no trigger, no other index or constraint; its own tables in the same database), durable commits, random pairs.`,
    `Bare SQL (the \`pg\` row): the ledger's statements for a transfer, in the ledger's order, through \`pg\` in one transaction — the ledger transaction with its two postings (one statement), the transfers row, the conditional balance UPDATEs in ledger-account id order — with no HTTP, session, ownership lookup, TPIN, activities or audit. PostgreSQL: a pool of exactly N connections; PGlite: its one connection.`,
    `Columns: "main thread busy" is the event-loop utilisation of this process's main thread (the API server in HTTP rows, the pg client in bare-SQL rows; with PGlite the database engine runs on it too), and "main-thread ms per op" that time divided by the operations; "CPU busy (steal)" is the whole machine's CPU use over the phase and the share the hypervisor took (other tenants' load shows here).`,
  ];
  console.log(header.join('\n'));

  if (process.env.BENCH_ONLY === 'pgbouncer') {
    await benchPoolerOnly();
    console.log(`\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    return;
  }
  if (process.env.BENCH_ONLY === 'lists') {
    for (const kind of kinds) await benchListsOnly(kind);
    console.log(`\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    return;
  }

  const results: DatabaseResult[] = [];
  for (const kind of kinds) {
    if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`unknown database ${kind}`);
    results.push(await benchDatabase(kind));
  }

  const postgresRows = results.find((r) => r.kind === 'postgres')?.transfers;
  for (const result of results) {
    annotate(result.transfers);
    console.log(`\n## ${result.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'} — ${result.version}`);
    console.log(`\n${result.label}; set-up (migrations + fixture) ${result.setupSeconds.toFixed(1)} s; load average ${result.loadAverage}.`);
    console.log('\nWarm-up (not measured):');
    for (const line of result.warmup) console.log(`- ${line}`);
    console.log(`\nTransfers (POST /v1/account/transfer_balance):\n`);
    console.log(table(result.transfers, 'transfers/s'));
    console.log('\nReads:\n');
    console.log(table(result.reads, 'requests/s'));
    for (const note of result.notes) console.log(`\n${note}`);
    console.log('\nAgainst the aims in issue 21:');
    for (const line of aims(result.transfers, postgresRows)) console.log(line);
    console.log(`\nLedger verification after the run: ${result.verify}`);
  }
  console.log(`\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

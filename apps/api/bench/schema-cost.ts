/**
 * `npm run bench:schema -w apps/api`: what each trigger, constraint and index of the ledger
 * tables costs the database itself. pgbench's one-statement transfer (the bench's ceiling
 * script) on our schema, then on copies of it with one thing removed at a time, then with all
 * of them removed, and the lean reference schema (primary keys only) last; every database a
 * copy of one migrated and loaded template, so only the removed object differs. PostgreSQL
 * only (pgbench needs a server). Prints a markdown table; never passes or fails anything.
 *
 * Two figures per schema. Throughput (pgbench, CLIENTS clients) is what the aims name, but on
 * a shared machine it moves with the neighbours' load. The database's own CPU time per
 * transfer does not: one connection sends CPU_TRANSFERS transfers (random pairs, each its own
 * committed transaction, the same statement as the pgbench script) and the time its backend
 * process spent on a core is read from /proc/<pid>/schedstat (nanoseconds) before and after.
 * It counts the statement, its triggers, constraint checks, index updates and the commit's
 * work in the backend (not the WAL writer, nor the wait for the disk).
 *
 * Settings (environment): DATABASE_URL (default the local server), SCHEMA_SECONDS (each
 * run, default 8), SCHEMA_CLIENTS (default 32), SCHEMA_HOT=1 (every transfer to one recipient).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, withoutStatementTimeouts, defaultDatabaseTimeouts } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createFixture } from './fixture.ts';
import { LEAN_SCRIPT, LEAN_STATEMENT, leanSchema, OUR_SCHEMA_STATEMENT, pgbenchAvailable, runPgbench } from './pgbench.ts';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.SCHEMA_SECONDS ?? 8);
const CLIENTS = Number(process.env.SCHEMA_CLIENTS ?? 32);
const HOT = process.env.SCHEMA_HOT === '1';
const CPU_TRANSFERS = Number(process.env.SCHEMA_CPU_TRANSFERS ?? 3_000);
const ACCOUNTS = 10_000;
const OPENING_CENTS = 1_000_000;

/** One object removed at a time (the names PostgreSQL gave them in the migrations). */
const REMOVALS: { name: string; sql: string }[] = [
  { name: 'deferred per-transaction sum trigger (postings)', sql: 'DROP TRIGGER ledger_postings_balanced ON ledger_postings' },
  { name: 'append-only trigger (postings)', sql: 'DROP TRIGGER ledger_postings_no_update ON ledger_postings' },
  { name: 'index postings (transaction)', sql: 'DROP INDEX ledger_postings_transaction_idx' },
  { name: 'index postings (account, transaction desc)', sql: 'DROP INDEX ledger_postings_account_idx' },
  { name: 'index postings (account, time) for the charts', sql: 'DROP INDEX ledger_postings_account_time_idx' },
  { name: 'primary key postings (id)', sql: 'ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_pkey' },
  { name: 'foreign key postings → transactions', sql: 'ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_ledger_transaction_id_fkey' },
  { name: 'foreign key postings → accounts', sql: 'ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_ledger_account_id_fkey' },
  { name: 'CHECK posting amount ≠ 0', sql: 'ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_amount_cents_check' },
  { name: 'unique transaction_id (transactions)', sql: 'ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_transaction_id_key' },
  {
    name: 'CHECKs amount > 0, fee ≥ 0 (transactions)',
    sql: 'ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_amount_cents_check, DROP CONSTRAINT ledger_transactions_fee_cents_check',
  },
  { name: 'CHECK wallet balance ≥ 0 (accounts)', sql: 'ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check1' },
];

/** A backend's time on a core so far, in ns (the first field of /proc/<pid>/schedstat). */
function backendCpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** The database's CPU time per transfer, in µs, measured on one connection's backend (see the top). */
async function backendCpuPerTransfer(databaseUrl: string, statement: string, lo: number, hi: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
    const send = async () => {
      const a = randomInt(lo, HOT ? hi : hi + 1);
      let b = randomInt(lo, hi);
      if (b >= a) b += 1;
      await client.query({ name: 'transfer', text: statement, values: [a, HOT ? hi : b, randomInt(1, 101)] });
    };
    for (let i = 0; i < 200; i += 1) await send(); // plan cached, caches warm
    const before = backendCpuNs(pid);
    for (let i = 0; i < CPU_TRANSFERS; i += 1) await send();
    return (backendCpuNs(pid) - before) / CPU_TRANSFERS / 1_000;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  if (!pgbenchAvailable()) throw new Error('pgbench not found (set PGBENCH)');
  const prefix = `kestrel_cost_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  const made: string[] = [];
  const urlOf = (name: string) => {
    const url = new globalThis.URL(URL);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const createDb = async (name: string, template?: string) => {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    made.push(name);
  };
  try {
    const base = `${prefix}_base`;
    await createDb(base);
    const handle = await openDatabase({ databaseUrl: urlOf(base), poolSize: 4, timeouts: withoutStatementTimeouts(defaultDatabaseTimeouts) });
    let lo = 0;
    let hi = 0;
    try {
      await migrate(handle.db);
      await createFixture(handle.db, {
        accounts: ACCOUNTS,
        users: 64,
        openingCents: OPENING_CENTS,
        tpin: 4321,
        historyTransactions: 2,
        secretKey: randomBytes(32).toString('hex'),
      });
      const range = await sql<{ lo: number; hi: number }>`
        SELECT MIN(id)::bigint AS lo, MAX(id)::bigint AS hi FROM ledger_accounts WHERE account_id IS NOT NULL`.execute(handle.db);
      lo = Number(range.rows[0]?.lo);
      hi = Number(range.rows[0]?.hi);
      if (hi - lo + 1 !== ACCOUNTS) throw new Error('wallet ledger accounts are not numbered contiguously');
    } finally {
      await handle.close();
    }

    const results: { name: string; tps: number; p99: number; cpuUs: number }[] = [];
    const measure = async (name: string, database: string, lean = false, range = { lo, hi }) => {
      const cpuUs = await backendCpuPerTransfer(urlOf(database), lean ? LEAN_STATEMENT : OUR_SCHEMA_STATEMENT, range.lo, range.hi);
      const row = await runPgbench({ databaseUrl: urlOf(database), clients: CLIENTS, seconds: SECONDS, lo: range.lo, hi: range.hi, hot: range.hi, hotOnly: HOT, ...(lean ? { script: LEAN_SCRIPT } : {}) });
      const tps = row.count / row.seconds;
      results.push({ name, tps, p99: row.p99, cpuUs });
      console.error(`${name}: ${cpuUs.toFixed(0)} µs CPU per transfer; ${tps.toFixed(0)}/s, p99 ${row.p99.toFixed(1)} ms`);
    };
    const variant = async (name: string, statements: string[]) => {
      const database = `${prefix}_${made.length}`;
      await createDb(database, base);
      const client = new pg.Client({ connectionString: urlOf(database) });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
      await measure(name, database);
      await admin.query(`DROP DATABASE ${database}`);
      made.splice(made.indexOf(database), 1);
    };

    await variant('our schema, everything in place', []);
    for (const removal of REMOVALS) await variant(`without ${removal.name}`, [removal.sql]);
    await variant(
      'without all of the above',
      REMOVALS.map((removal) => removal.sql),
    );
    await variant('our schema, everything in place (again, for drift)', []);

    const lean = `${prefix}_lean`;
    await createDb(lean);
    const client = new pg.Client({ connectionString: urlOf(lean) });
    await client.connect();
    await client.query(leanSchema(ACCOUNTS, OPENING_CENTS));
    await client.end();
    await measure('lean reference (primary keys only)', lean, true, { lo: 1, hi: ACCOUNTS });

    const first = results[0];
    const again = results[results.length - 2];
    const leanRow = results[results.length - 1];
    if (!first || !again || !leanRow) throw new Error('missing results');
    const baseTps = (first.tps + again.tps) / 2;
    const baseCpu = (first.cpuUs + again.cpuUs) / 2;
    console.log(`\nOne-statement transfer, ${HOT ? 'hot recipient' : 'random pairs'}: backend CPU over ${CPU_TRANSFERS} sequential transfers; pgbench ${CLIENTS} clients, ${SECONDS} s\n`);
    console.log('| schema | backend CPU µs per transfer | saved vs our schema | pgbench transfers/s | p99 ms | pgbench vs lean |');
    console.log('|---|--:|--:|--:|--:|--:|');
    for (const r of results) {
      const saved = r === first || r === again || r === leanRow ? '' : `${(((baseCpu - r.cpuUs) / baseCpu) * 100).toFixed(0)}%`;
      console.log(`| ${r.name} | ${r.cpuUs.toFixed(0)} | ${saved} | ${Math.round(r.tps).toLocaleString('en-US')} | ${r.p99.toFixed(1)} | ${(r.tps / leanRow.tps).toFixed(2)} |`);
    }
    console.log(`\nOur schema ÷ lean: CPU ${(leanRow.cpuUs / baseCpu).toFixed(2)} (lean's CPU per transfer over ours), pgbench ${(baseTps / leanRow.tps).toFixed(2)}`);
  } finally {
    for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

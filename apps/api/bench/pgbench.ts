import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { percentile, type Row } from './report.ts';

const run = promisify(execFile);

/**
 * The ceiling from PostgreSQL's own load tool: `pgbench` with a custom script whose one
 * statement is a transfer — the ledger transaction, its two postings and both balance
 * updates (ascending ids, so no deadlocks) — with no HTTP, session, ownership, TPIN,
 * idempotency record, activities or audit. Every transaction is a separate round trip
 * from pgbench's C client, with synchronous commit as the server has it.
 */
const PICK = String.raw`\set a random(:lo, :hi - 1)
\set a case when :a >= :hot then :a + 1 else :a end
\set b random(:lo, :hi - 1)
\set b case when :b >= :a then :b + 1 else :b end
\set b case when :hotonly = 1 then :hot else :b end
\set amt random(1, 100)
\set neg 0 - :amt
`;

/** Our schema: every trigger, constraint and index of the ledger tables is in the way. */
export const OUR_SCHEMA_SCRIPT = PICK + String.raw`WITH t AS (
  INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, metadata)
  VALUES ('PGB' || md5(random()::text || clock_timestamp()::text), 'transfer', 'Fund Transfer', 'USD', :amt::bigint, '{}'::jsonb)
  RETURNING id
), p AS (
  INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
  SELECT t.id, v.la, v.c FROM t, (VALUES (:a::bigint, :neg::bigint), (:b::bigint, :amt::bigint)) AS v(la, c)
)
UPDATE ledger_accounts SET balance_cents = balance_cents + CASE WHEN id = :a::bigint THEN :neg::bigint ELSE :amt::bigint END
 WHERE id IN (:a::bigint, :b::bigint);
`;

/**
 * The lean reference: a bare double-entry table set (accounts with a balance, transactions,
 * postings; primary keys only, no trigger, no other index or constraint) and the same one
 * statement, durable commits. What the machine does for a double-entry transfer with nothing
 * of ours in the way; made by LEAN_SCHEMA in a database of its own.
 */
export const LEAN_SCRIPT = PICK + String.raw`WITH t AS (
  INSERT INTO lean_transactions (amount_cents) VALUES (:amt::bigint) RETURNING id
), p AS (
  INSERT INTO lean_postings (transaction_id, account_id, amount_cents)
  SELECT t.id, v.la, v.c FROM t, (VALUES (:a::bigint, :neg::bigint), (:b::bigint, :amt::bigint)) AS v(la, c)
)
UPDATE lean_accounts SET balance_cents = balance_cents + CASE WHEN id = :a::bigint THEN :neg::bigint ELSE :amt::bigint END
 WHERE id IN (:a::bigint, :b::bigint);
`;

/**
 * The same two statements with `$1` (debited ledger account), `$2` (credited), `$3` (amount),
 * for a client that sends them itself (the schema cost's CPU measurement).
 */
export const OUR_SCHEMA_STATEMENT = statementOf(OUR_SCHEMA_SCRIPT);
export const LEAN_STATEMENT = statementOf(LEAN_SCRIPT);

function statementOf(script: string): string {
  const body = script.split('\n').filter((line) => !line.startsWith('\\set')).join('\n');
  return body.replaceAll(':a::bigint', '$1::bigint').replaceAll(':b::bigint', '$2::bigint').replaceAll(':neg::bigint', '(-$3::bigint)').replaceAll(':amt::bigint', '$3::bigint');
}

/** The lean reference's tables, with `accounts` rows numbered 1..n, each holding `opening` cents. */
export const leanSchema = (accounts: number, opening: number): string => `
CREATE TABLE lean_accounts (id bigint PRIMARY KEY, balance_cents bigint NOT NULL);
CREATE TABLE lean_transactions (id bigserial PRIMARY KEY, amount_cents bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE lean_postings (id bigserial PRIMARY KEY, transaction_id bigint NOT NULL, account_id bigint NOT NULL, amount_cents bigint NOT NULL);
INSERT INTO lean_accounts SELECT i, ${opening} FROM generate_series(1, ${accounts}) AS i;
ANALYZE;
`;

export const PGBENCH = process.env.PGBENCH ?? '/usr/bin/pgbench';

export function pgbenchAvailable(): boolean {
  return existsSync(PGBENCH);
}

export interface PgbenchLoad {
  databaseUrl: string;
  clients: number;
  seconds: number;
  /** Wallet ledger-account ids lo..hi (contiguous); `hot` is one of them and never a sender. */
  lo: number;
  hi: number;
  hot: number;
  hotOnly: boolean;
  /** The pgbench script (default: our schema's one-statement transfer). */
  script?: string;
  /** The row's name (default: from the script and the pair choice). */
  workload?: string;
}

export async function runPgbench(load: PgbenchLoad): Promise<Row> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kestrel-pgbench-'));
  try {
    const script = path.join(dir, 'transfer.sql');
    writeFileSync(script, load.script ?? OUR_SCHEMA_SCRIPT);
    const { stdout } = await run(
      PGBENCH,
      [
        '-n',
        '-f',
        script,
        '-c',
        String(load.clients),
        '-j',
        String(Math.min(load.clients, 2)),
        '-T',
        String(load.seconds),
        '-M',
        'prepared',
        '--max-tries=5',
        '-l',
        '--log-prefix',
        path.join(dir, 'log'),
        '-D',
        `lo=${load.lo}`,
        '-D',
        `hi=${load.hi}`,
        '-D',
        `hot=${load.hot}`,
        '-D',
        `hotonly=${load.hotOnly ? 1 : 0}`,
        load.databaseUrl,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    // Per-transaction log lines: client id, transaction no, latency in µs, ...
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith('log'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        const field = line.split(' ')[2];
        if (field !== undefined && field !== 'failed' && field !== 'skipped') latencies.push(Number(field) / 1000);
      }
    }
    const processed = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
    return {
      workload: load.workload ?? `pgbench one-statement transfer, ${load.hotOnly ? 'hot recipient' : 'random pairs'}`,
      clients: load.clients,
      count: processed,
      seconds: tps > 0 ? processed / tps : load.seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      failures: failed > 0 ? { failed } : {},
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

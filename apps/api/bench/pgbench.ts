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
const SCRIPT = String.raw`\set a random(:lo, :hi - 1)
\set a case when :a >= :hot then :a + 1 else :a end
\set b random(:lo, :hi - 1)
\set b case when :b >= :a then :b + 1 else :b end
\set b case when :hotonly = 1 then :hot else :b end
\set amt random(1, 100)
\set neg 0 - :amt
WITH t AS (
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
}

export async function runPgbench(load: PgbenchLoad): Promise<Row> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kestrel-pgbench-'));
  try {
    const script = path.join(dir, 'transfer.sql');
    writeFileSync(script, SCRIPT);
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
      workload: `pgbench one-statement transfer, ${load.hotOnly ? 'hot recipient' : 'random pairs'}`,
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

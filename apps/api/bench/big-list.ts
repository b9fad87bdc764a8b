import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import type { LoadGenerator } from './load.ts';
import type { LoadResult } from './load-protocol.ts';

/*
 * The 100,000-row list (issue 20, item 11): one account with 100,000 payment-request links,
 * written set-based in one INSERT … SELECT over generate_series (seconds, not minutes), and
 * the reads its list page makes: the first page (25, as the web asks) and the counters over
 * all of them, each at 8 clients.
 */

export const BIG_LIST_ROWS = 100_000;
/** The page the web's payment-request list asks for. */
export const BIG_LIST_PAGE = 25;

/**
 * Writes `rows` links on the account, one a second apart going back from now (so the newest
 * first order is the insertion order reversed), every tenth inactive, every third with a use
 * limit; answers the seconds it took.
 */
export async function seedBigLinkList(db: Db, accountId: string, createdBy: string, rows = BIG_LIST_ROWS): Promise<number> {
  const started = performance.now();
  await sql`
    INSERT INTO payment_requests (account_id, created_by, p_request_url_id, status, payment_purpose, reference, amount_type, currency,
                                  amount_cents, is_use_limit, use_limit, accepts_card, accepts_kestrel, created_at, updated_at)
    SELECT ${accountId}, ${createdBy}, 'bench-' || g || '-' || substr(md5(random()::text), 1, 12),
           CASE WHEN g % 10 = 0 THEN 'inactive' ELSE 'active' END,
           'Bench link ' || g, 'BENCH-' || g, 'fixed', 'USD', 100 + g % 5000,
           g % 3 = 0, CASE WHEN g % 3 = 0 THEN 5 END, true, g % 2 = 0,
           now() - make_interval(secs => ${rows} - g), now()
      FROM generate_series(1, ${rows}) AS g`.execute(db);
  await sql`ANALYZE payment_requests`.execute(db);
  return (performance.now() - started) / 1000;
}

export interface BigListRead {
  name: string;
  path: string;
}

/** The list page's two reads of the account's links. */
export function bigListReads(accountNumber: string): BigListRead[] {
  const base = `/v1/payment-request/account/${accountNumber}`;
  return [
    { name: `GET /v1/payment-request/account/{n}?limit=${BIG_LIST_PAGE} (first page of a ${BIG_LIST_ROWS.toLocaleString('en-US')}-link list)`, path: `${base}?limit=${BIG_LIST_PAGE}` },
    { name: `GET /v1/payment-request/account/{n}/summary (counters over ${BIG_LIST_ROWS.toLocaleString('en-US')} links)`, path: `${base}/summary` },
  ];
}

/** One read at `concurrency` clients for `durationMs`, after a short warm-up; checks the answer is a full page or the counters. */
export async function runBigListRead(generator: LoadGenerator, baseUrl: string, token: string, read: BigListRead, concurrency: number, durationMs: number): Promise<LoadResult> {
  const check = await fetch(`${baseUrl}${read.path}`, { headers: { authorization: token } });
  const body = (await check.json()) as { data?: unknown };
  const data = body.data;
  const ok = check.status === 200 && (Array.isArray(data) ? data.length === BIG_LIST_PAGE : (data as { total?: number } | undefined)?.total === BIG_LIST_ROWS);
  if (!ok) throw new Error(`${read.path} answered ${check.status} ${JSON.stringify(body).slice(0, 200)}`);
  await generator.run({ kind: 'get', baseUrl, concurrency, path: read.path, token, durationMs: Math.min(durationMs, 1000) });
  return generator.run({ kind: 'get', baseUrl, concurrency, path: read.path, token, durationMs });
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type DatabaseConnection, type Driver } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHolder, createUser } from '../../test/factories.ts';
import { testConfig, testDatabase, testServer } from '../../test/harness.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle, type Db } from './database.ts';
import type { Database } from './schema.ts';
import { ReadRouter, type ReadCounts } from './read-routing.ts';

/**
 * DATABASE_READ_URL (README "Reads on a standby"). The real standby, its lag and its loss are
 * proved on a pg_auto_failover formation by `npm run test:read-routing`; here every routed
 * route is held to what the primary answers. On PostgreSQL the "standby" is a session of the
 * test database that refuses every write (default_transaction_read_only): a routed read that
 * wrote would fail there and be counted as a fallback, so `primaryUnavailable: 0` says none writes.
 */

interface RoutedApp {
  app: FastifyInstance;
  baseUrl: string;
  reads: ReadRouter;
}

async function routedApp(db: Db, readDb: Db): Promise<RoutedApp> {
  const config = testConfig();
  const app = await buildApp({ config, db, readDb, logger: false, webDist: path.join(config.dataDir, 'no-web') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  if (!app.ctx.reads) throw new Error('no read router');
  return { app, baseUrl: `http://127.0.0.1:${address.port}`, reads: app.ctx.reads };
}

async function get(baseUrl: string, method: string, url: string, token: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const counted = (reads: ReadRouter): ReadCounts => ({ ...reads.counts });

describe('DATABASE_READ_URL, the setting', () => {
  it('is read beside DATABASE_URL, and refused without it (embedded PGlite has no standby)', () => {
    const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'kestrel-read-url-'));
    const config = loadConfig({ DATA_DIR, DATABASE_URL: 'postgres://kestrel@db1/kestrel', DATABASE_READ_URL: 'postgres://kestrel@db2/kestrel' });
    expect(config.databaseReadUrl).toBe('postgres://kestrel@db2/kestrel');
    expect(loadConfig({ DATA_DIR }).databaseReadUrl).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR, DATABASE_READ_URL: 'postgres://kestrel@db2/kestrel' })).toThrow(
      'Invalid settings: DATABASE_READ_URL: a standby for reads needs DATABASE_URL (its primary); embedded PGlite has none',
    );
  });
});

describe('reads on a standby (DATABASE_READ_URL)', () => {
  let primary: DatabaseHandle;
  let standby: Db;
  let standbyHandle: DatabaseHandle | undefined;
  let routed: RoutedApp;

  beforeAll(async () => {
    await testServer();
    primary = await testDatabase();
    const url = inject('testDatabaseUrl');
    if (url) {
      const readOnly = new URL(url);
      readOnly.searchParams.set('options', '-c default_transaction_read_only=on');
      standbyHandle = await openDatabase({ databaseUrl: readOnly.toString(), poolSize: 4, applicationName: 'kestrel-reads-test' });
      standby = standbyHandle.db;
    } else {
      // PGlite has one connection and no standby: the same engine under another handle.
      standby = primary.db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result });
    }
    routed = await routedApp(primary.db, standby);
  });

  afterAll(async () => {
    await routed?.app.close();
    await standbyHandle?.close();
  });

  it('answers every list, counter, chart and export exactly as the primary does, read on the standby, with no write', async () => {
    if (standbyHandle) {
      const { rows } = await sql<{ defaultTransactionReadOnly: string }>`SHOW default_transaction_read_only`.execute(standbyHandle.db);
      expect(rows[0]?.defaultTransactionReadOnly).toBe('on');
    }
    const { user, account } = await createHolder(12_345);
    const { account: other } = await createHolder(0);
    const transfer = await get((await testServer()).baseUrl, 'POST', '/v1/account/transfer_balance', user.token, {
      userId: user.userId,
      debitAccountKey: account.userName,
      creditAccountKey: other.userName,
      currency: 'USD',
      balance: 1.5,
      tpin: Number(account.tpin),
    });
    expect(transfer.status).toBe(200);
    const n = account.accountNumber;
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/transaction/account/${n}`],
      ['GET', `/v1/account/${n}/summary`],
      ['GET', `/v1/account/${n}/chart`],
      ['POST', '/v1/payment/account', { accountEmail: account.accountEmail }],
      ['POST', '/v1/payment/account/summary', { accountEmail: account.accountEmail }],
      ['GET', `/v1/payment-request/account/${n}`],
      ['GET', `/v1/payment-request/account/${n}/summary`],
      ['GET', `/v1/payment/source?type=Link-payment&accountNumber=${n}`],
      ['GET', `/data/v1/invoice/user/${user.userId}`],
      ['GET', `/v1/bank-withdraw/account/${n}`],
      ['GET', `/v1/bank-withdraw/account/${n}/summary`],
      ['GET', `/v1/export/transactions/${n}`],
      ['GET', `/v1/export/payments/${n}`],
      ['GET', `/v1/export/payment-request-payments/${n}`],
      ['GET', `/v1/export/refunds/${n}`],
      ['GET', `/v1/export/withdrawals/${n}`],
    ];
    const direct = (await testServer()).baseUrl;
    for (const [method, url, body] of calls) {
      const before = counted(routed.reads);
      const onStandby = await get(routed.baseUrl, method, url, user.token, body);
      const after = counted(routed.reads);
      const onPrimary = await get(direct, method, url, user.token, body);
      expect({ url, status: onStandby.status }).toEqual({ url, status: 200 });
      expect(onStandby.text).toBe(onPrimary.text);
      expect({ url, standby: after.standby - before.standby, lagging: after.primaryLagging - before.primaryLagging, unavailable: after.primaryUnavailable - before.primaryUnavailable }).toEqual({
        url,
        standby: 1,
        lagging: 0,
        unavailable: 0,
      });
    }
    // The transfer just made is in the list read on the standby.
    const list = JSON.parse((await get(routed.baseUrl, 'GET', `/v1/transaction/account/${n}`, user.token)).text);
    expect(list.data[0].transactions[0].transactionId).toBe(JSON.parse(transfer.text).data.transactionId);
  });

  it("answers another user's account 404 from the standby, as from the primary, without falling back", async () => {
    const { account } = await createHolder(0);
    const stranger = await createUser();
    const before = counted(routed.reads);
    const answer = await get(routed.baseUrl, 'GET', `/v1/transaction/account/${account.accountNumber}`, stranger.token);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'error', error: 'Account not available!', code: 'account_not_found' });
    expect(routed.reads.counts.primaryUnavailable).toBe(before.primaryUnavailable);
  });

  it('reads from the primary, never an error, when the standby cannot be reached', async () => {
    const gone = await openDatabase({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/kestrel',
      poolSize: 2,
      timeouts: { connectMs: 500, statementMs: 2_000, idleInTransactionMs: 0 },
    });
    const lost = await routedApp(primary.db, gone.db);
    try {
      const { user, account } = await createHolder(2_500);
      const url = `/v1/transaction/account/${account.accountNumber}`;
      const expected = await get((await testServer()).baseUrl, 'GET', url, user.token);
      for (let i = 1; i <= 3; i++) {
        const answer = await get(lost.baseUrl, 'GET', url, user.token);
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(expected.text);
        expect(lost.reads.counts).toEqual({ standby: 0, primaryLagging: 0, primaryUnavailable: i });
      }
      expect(JSON.parse(expected.text).data[0].transactions[0].amount).toBe(25);
    } finally {
      await lost.app.close();
      await gone.close();
    }
  });

  it('runs a read again on the primary when the standby fails it (a recovery conflict), and lets a request error through', async () => {
    const router = routed.reads;
    const before = counted(router);
    const answer = await router.run(async (db) => {
      if (db === standby) throw Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
      return 'primary';
    });
    expect(answer).toBe('primary');
    expect(router.counts.primaryUnavailable - before.primaryUnavailable).toBe(1);
    // The standby rests after a failure: the next reads go straight to the primary.
    expect(await router.run(async (db) => (db === standby ? 'standby' : 'primary'))).toBe('primary');
  });
});

/**
 * A standby whose replay position check answers from `replayed` in turn (true: caught up with
 * the fence), so lag can be played exactly; it serves no other query.
 */
function scriptedStandby(replayed: boolean[]): { db: Db; checks: () => number } {
  let checks = 0;
  const db = scriptedDb(() => {
    const answer = replayed[Math.min(checks, replayed.length - 1)] ?? false;
    checks++;
    return { replayed: answer };
  });
  return { db, checks: () => checks };
}

/** A database that answers every query with the one row `row()` makes. */
function scriptedDb(row: () => Record<string, unknown>): Db {
  const connection: DatabaseConnection = {
    async executeQuery<R>() {
      return { rows: [row()] as R[] };
    },
    // eslint-disable-next-line require-yield
    async *streamQuery() {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

describe('read-your-writes: the standby is read only once it has replayed up to the fence', () => {
  const where = (router: ReadRouter) => router.run(async (db) => (db === router.standby ? 'standby' : 'primary'));

  it('reads on the standby when it has caught up, after waiting for it when it is just behind', async () => {
    const { db: primary } = await testDatabase();
    const caughtUp = scriptedStandby([true]);
    const router = new ReadRouter(primary, caughtUp.db);
    expect(await where(router)).toBe('standby');
    expect(router.counts).toEqual({ standby: 1, primaryLagging: 0, primaryUnavailable: 0 });

    const justBehind = scriptedStandby([false, false, true]);
    const waiting = new ReadRouter(primary, justBehind.db, { maxWaitMs: 1_000 });
    expect(await where(waiting)).toBe('standby');
    expect(justBehind.checks()).toBe(3);
    expect(waiting.counts).toEqual({ standby: 1, primaryLagging: 0, primaryUnavailable: 0 });
  });

  it('reads on the primary when the standby has not caught up within maxWaitMs, and tries the standby again on the next read', async () => {
    const { db: primary } = await testDatabase();
    const behind = scriptedStandby([false, false, false, false, false, false, false, false, false, false, false, false, true]);
    const router = new ReadRouter(primary, behind.db, { maxWaitMs: 30 });
    const started = Date.now();
    expect(await where(router)).toBe('primary');
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
    expect(router.counts).toEqual({ standby: 0, primaryLagging: 1, primaryUnavailable: 0 });
    // Lag is no failure: no rest, the next read asks the standby again.
    const before = behind.checks();
    await where(router);
    expect(behind.checks()).toBeGreaterThan(before);
  });

  it('reads where it would without DATABASE_READ_URL when the primary is a standby itself (demoted, mid-failover)', async () => {
    const demoted = scriptedDb(() => ({ lsn: null }));
    const standby = scriptedStandby([true]);
    const router = new ReadRouter(demoted, standby.db);
    expect(await where(router)).toBe('primary');
    expect(standby.checks()).toBe(0);
    expect(router.counts).toEqual({ standby: 0, primaryLagging: 1, primaryUnavailable: 0 });
  });
});

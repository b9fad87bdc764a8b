import { randomInt, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { createLogger } from '../src/logger.ts';
import { verifyLedger } from '../src/modules/ledger/verify.ts';
import { startServer } from '../src/start.ts';
import { createAccount, createUser, fundAccount, raiseStepUpThreshold, type TestAccount, type TestUser } from './factories.ts';
import { testConfig, testDatabase } from './harness.ts';
import { PgProxy } from './pg-proxy.ts';

const databaseUrl = inject('testDatabaseUrl');
const applicationName = 'kestrel-outage-test';
/** Short timeouts so each outage costs the suite seconds, not minutes. */
const timeouts = { connectMs: 1_000, statementMs: 1_500, idleInTransactionMs: 3_000 };

interface Sender {
  user: TestUser;
  account: TestAccount;
}

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  replayed: boolean;
  transactionId?: string;
  /** 'network' when the socket closed or the request hung past 10 s: neither may happen. */
  failure?: 'network';
  ms: number;
}

function targetOf(url: string) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 5432) };
}

/** POST /v1/account/transfer_balance to `baseUrl`, never throwing: a broken socket or a hang is an answer too. */
async function sendTransfer(baseUrl: string, sender: Sender, to: TestAccount, cents: number, key: string): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(`${baseUrl}/v1/account/transfer_balance`, {
      method: 'POST',
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', authorization: sender.user.token, 'idempotency-key': key },
      body: JSON.stringify({
        userId: sender.user.userId,
        debitAccountKey: sender.account.userName,
        creditAccountKey: to.userName,
        currency: 'USD',
        balance: cents / 100,
        tpin: Number(sender.account.tpin),
      }),
    });
    const body = (await response.json()) as { code?: string; data?: { transactionId: string } };
    return {
      status: response.status,
      code: body.code,
      retryAfter: response.headers.get('retry-after'),
      replayed: response.headers.get('idempotent-replayed') === 'true',
      transactionId: body.data?.transactionId,
      ms: Date.now() - started,
    };
  } catch {
    return { status: 0, retryAfter: null, replayed: false, failure: 'network', ms: Date.now() - started };
  }
}

async function statusOf(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

/** Polls `url` every 20 ms until it answers `status`; answers how long that took. */
async function msUntilStatus(url: string, status: number, limitMs = 10_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if ((await statusOf(url)) === status) return Date.now() - started;
    await sleep(20);
  }
  throw new Error(`${url} did not answer ${status} within ${limitMs} ms`);
}

async function holder(fundCents: number): Promise<Sender> {
  const user = await createUser();
  const account = await createAccount(user);
  if (fundCents) await fundAccount(account.accountId, fundCents);
  // An outage test, not a step-up one: its senders may move more than US$ 1,000.00 a day.
  await raiseStepUpThreshold(account.accountId);
  return { user, account };
}

if (!databaseUrl) {
  describe('when the database goes away', () => {
    it.skip('skipped on PGlite: these tests put a TCP proxy in front of a PostgreSQL server (run npm test with DATABASE_URL)', () => {});
  });
} else {
  describe('when the database goes away', () => {
    const proxy = new PgProxy(targetOf(databaseUrl));
    let database: DatabaseHandle;
    let app: FastifyInstance;
    let baseUrl: string;
    const connectionLog: string[] = [];

    beforeAll(async () => {
      await proxy.start();
      // This file's own pool and server, behind the proxy: the other tests keep their direct connections.
      database = await openDatabase({
        databaseUrl: proxy.urlFor(databaseUrl),
        poolSize: 8,
        timeouts,
        applicationName,
        log: { warn: (_object, message) => connectionLog.push(message) },
      });
      const config = testConfig();
      app = await buildApp({ config, db: database.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    });

    afterAll(async () => {
      await app?.close();
      await database?.close();
      await proxy.close();
    });

    it('answers 503 database_unavailable, recovers within a second of each outage and loses or repeats no transfer', async () => {
      const senders = await Promise.all([1, 2, 3, 4].map(() => holder(1_000_000)));
      const recipient = (await holder(0)).account;
      // Warm each sender's verified-TPIN cache, as a live server's would be.
      for (const sender of senders) expect((await sendTransfer(baseUrl, sender, recipient, 1, randomUUID())).status).toBe(200);

      const answers: Answer[] = [];
      const acknowledged = new Map<string, { sender: Sender; cents: number; transactionId: string; at: number }>();
      let running = true;
      /** Sends transfers one after another; each is retried with its key until acknowledged, as a careful client does. */
      const worker = async (sender: Sender) => {
        while (running) {
          const key = randomUUID();
          const cents = randomInt(1, 100);
          const started = Date.now();
          for (;;) {
            const answer = await sendTransfer(baseUrl, sender, recipient, cents, key);
            answers.push(answer);
            if (answer.status === 200) {
              acknowledged.set(key, { sender, cents, transactionId: answer.transactionId!, at: Date.now() });
              break;
            }
            if (Date.now() - started > 30_000) throw new Error(`transfer ${key} not acknowledged after 30 s`);
            await sleep(100);
          }
        }
      };
      const workers = senders.map((sender) => worker(sender));
      const successAfter = async (since: number) => {
        while (![...acknowledged.values()].some((ack) => ack.at >= since)) {
          if (Date.now() - since > 10_000) throw new Error('no transfer succeeded within 10 s');
          await sleep(10);
        }
        return Math.min(...[...acknowledged.values()].filter((ack) => ack.at >= since).map((ack) => ack.at)) - since;
      };
      const probe = async () => sendTransfer(baseUrl, senders[0]!, recipient, 1, randomUUID());
      const recoveries: Record<string, { readyMs: number; transferMs: number }> = {};
      const recover = async (name: string) => {
        const healedAt = Date.now();
        proxy.heal();
        const [readyMs, transferMs] = await Promise.all([msUntilStatus(`${baseUrl}/readyz`, 200), successAfter(healedAt)]);
        recoveries[name] = { readyMs, transferMs };
      };

      const { db } = await testDatabase();
      try {
        await sleep(500);

        // (a) Every connection reset at once.
        proxy.resetAll();
        await sleep(700);

        // (b) A database restart: connections reset, new ones refused for 2.5 s.
        proxy.resetAll();
        proxy.refuse();
        const refusedAt = Date.now();
        expect(await msUntilStatus(`${baseUrl}/readyz`, 503)).toBeLessThan(1_500);
        expect(await statusOf(`${baseUrl}/healthz`)).toBe(200);
        const whileDown = await probe();
        expect(whileDown).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '1' });
        expect(whileDown.ms).toBeLessThan(timeouts.connectMs + 1_000);
        await sleep(2_500 - (Date.now() - refusedAt));
        await recover('refused');

        // (c) A silent network: nothing refused, nothing answered, for 3 s.
        await sleep(300);
        proxy.blackhole();
        const silentAt = Date.now();
        expect(await msUntilStatus(`${baseUrl}/readyz`, 503)).toBeLessThan(1_500);
        expect(await statusOf(`${baseUrl}/healthz`)).toBe(200);
        const whileSilent = await probe();
        expect(whileSilent).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '1' });
        expect(whileSilent.ms).toBeLessThan(timeouts.statementMs + 1_000 + 1_000);
        await sleep(Math.max(0, 3_000 - (Date.now() - silentAt)));
        await recover('silent');

        // (d) An administrator ends every backend of this server's pool.
        await sleep(300);
        // Two statements: in one, PostgreSQL may call pg_terminate_backend before filtering the rows.
        const backends = await sql<{ pid: number }>`
          SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${applicationName}`.execute(db);
        expect(backends.rows.length).toBeGreaterThan(0);
        const terminated = await sql<{ ok: boolean }>`
          SELECT pg_terminate_backend(pid) AS ok FROM unnest(${backends.rows.map((row) => row.pid)}::int[]) AS pid`.execute(db);
        expect(terminated.rows.some((row) => row.ok)).toBe(true);
        await sleep(700);
      } finally {
        // Stopped even when an assertion above failed, so no transfer outlives this test.
        proxy.heal();
        running = false;
        await Promise.all(workers);
      }

      // The process is up (this is it) and answered every request: no closed socket, no hang, no 500.
      expect(answers.filter((answer) => answer.failure)).toEqual([]);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) expect(answer).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '1' });
      for (const [name, recovery] of Object.entries(recoveries)) {
        expect(recovery.readyMs, `${name}: /readyz back`).toBeLessThan(1_000);
        expect(recovery.transferMs, `${name}: first transfer after healing`).toBeLessThan(1_000);
      }
      expect(connectionLog).toContain('database connection lost');
      console.log(`outage run: ${acknowledged.size} transfers acknowledged, ${refused.length} answers 503, recoveries ${JSON.stringify(recoveries)}`);

      // 0 lost, 0 applied twice: the books hold exactly the acknowledged transfers.
      const transactionIds = [...acknowledged.values()].map((ack) => ack.transactionId);
      expect(new Set(transactionIds).size).toBe(transactionIds.length);
      for (const sender of senders) {
        const mine = [...acknowledged.values()].filter((ack) => ack.sender === sender);
        const rows = await db
          .selectFrom('transfers')
          .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'transfers.ledgerTransactionId')
          .select(['ledgerTransactions.transactionId', 'transfers.amountCents'])
          .where('transfers.fromAccountId', '=', sender.account.accountId)
          .execute();
        // Every acknowledged transfer once, and besides them only the 1-cent warm-up.
        const rowIds = rows.map((row) => row.transactionId);
        expect(new Set(rowIds).size).toBe(rows.length);
        for (const ack of mine) expect(rowIds).toContain(ack.transactionId);
        const acknowledgedIds = new Set(mine.map((ack) => ack.transactionId));
        expect(rows.filter((row) => !acknowledgedIds.has(row.transactionId)).map((row) => row.amountCents)).toEqual([1]);
        const sent = mine.reduce((sum, ack) => sum + ack.cents, 0) + 1;
        expect(rows.reduce((sum, row) => sum + row.amountCents, 0)).toBe(sent);
        const wallet = await db.selectFrom('walletBalances').select('balanceCents').where('accountId', '=', sender.account.accountId).where('currency', '=', 'USD').executeTakeFirstOrThrow();
        expect(Number(wallet.balanceCents)).toBe(1_000_000 - sent);
      }
      expect((await verifyLedger(db)).problems).toEqual([]);
    });

    it('answers 503 when the connection dies after COMMIT was sent, and the retry with the same key gets the stored answer', async () => {
      const sender = await holder(10_000);
      const recipient = (await holder(0)).account;
      expect((await sendTransfer(baseUrl, sender, recipient, 1, randomUUID())).status).toBe(200);
      const key = randomUUID();
      proxy.breakAfterNextCommit();
      const unknown = await sendTransfer(baseUrl, sender, recipient, 250, key);
      expect(unknown).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '1' });
      const retry = await sendTransfer(baseUrl, sender, recipient, 250, key);
      expect(retry).toMatchObject({ status: 200, replayed: true });
      const { db } = await testDatabase();
      const rows = await db.selectFrom('transfers').select('amountCents').where('fromAccountId', '=', sender.account.accountId).orderBy('id').execute();
      expect(rows.map((row) => row.amountCents)).toEqual([1, 250]);
    });

    it('starts while the database is unreachable and becomes ready once it is back, without a restart', async () => {
      const startupProxy = new PgProxy(targetOf(databaseUrl));
      await startupProxy.start();
      startupProxy.refuse();
      const lines: string[] = [];
      const destination = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
      const config = testConfig({ databaseUrl: startupProxy.urlFor(databaseUrl), databaseTimeouts: timeouts, port: 0, host: '127.0.0.1', seedDemo: false });
      const log = createLogger({ logLevel: 'info', nodeEnv: 'test' }, { pretty: false, destination });
      const started = Date.now();
      setTimeout(() => startupProxy.heal(), 5_000);
      const server = await startServer(config, log, { webDist: path.join(config.dataDir, 'no-web') });
      try {
        expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
        // The next attempt after healing comes within the longest pause (2 s), then migrations and listen.
        expect(Date.now() - started).toBeLessThan(10_000);
        const address = server.app.server.address() as { port: number };
        expect(await statusOf(`http://127.0.0.1:${address.port}/readyz`)).toBe(200);
        const waits = lines.map((line) => JSON.parse(line) as { level: number; msg: string; attempt?: number }).filter((entry) => entry.msg === 'database unreachable; trying again');
        expect(waits.length).toBeGreaterThanOrEqual(3);
        expect(waits.every((entry) => entry.level === 40)).toBe(true);
        expect(waits.map((entry) => entry.attempt)).toEqual(waits.map((_entry, index) => index + 1));
      } finally {
        await server.stop();
        await startupProxy.close();
      }
    });
  });
}

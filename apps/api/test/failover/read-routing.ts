/**
 * `npm run test:read-routing` (as root: the formation runs as the `postgres` user): reads on a
 * standby with read-your-writes, on a real pg_auto_failover formation (scripts/ha/formation.sh)
 * with its secondary as DATABASE_READ_URL. README "Reads on a standby" lists what it proves.
 *
 * The API server runs in this process, so the read router's counters can be read:
 *   1. the standby replaying: alice's transfer is in alice's list on the very next request,
 *      ROUNDS times in a row, while carol (who moves no money) reads her list and dashboard
 *      counters, and those reads run on the standby (the router's counters, and the standby's
 *      own pg_stat_activity showing the `kestrel-reads` connections);
 *   2. the standby's replay paused (`pg_wal_replay_pause()`, the worst lag): alice's transfer is
 *      still in her next list, every time (those reads went to the primary as lagging);
 *   3. the standby stopped (its keeper and postmaster): every list and counter read still
 *      answers 200 with the same content, from the primary;
 *   4. the standby started again: once it has caught up, reads run on it again (no API restart),
 *      and alice still finds each transfer in her next list.
 * Bounded: the whole run gives up after TEST_LIMIT_MS; the formation is destroyed at the end.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import type { ReadCounts } from '../../src/db/read-routing.ts';
import { startServer, type RunningServer } from '../../src/start.ts';
import { fundWallet } from '../ledger-fixtures.ts';
import { call, createHolder, expectStatus, FORMATION_USER, formationAt, log, query, run, type Holder } from './ha-harness.ts';

const formation = formationAt('/tmp/kestrel-read-routing-test', 5470);
const haDir = formation.dir;
const basePort = formation.basePort;
/** Transfers (each followed by the lists) per phase. */
const ROUNDS = Number(process.env.READ_ROUTING_ROUNDS ?? 60);
const TEST_LIMIT_MS = 8 * 60_000;

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`FAILED: ${what}`);
  log(`ok: ${what}`);
}

/** The newest transaction id in a holder's list. */
async function newestListed(baseUrl: string, holder: Holder): Promise<string | undefined> {
  const body = expectStatus(await call(baseUrl, 'GET', `/v1/transaction/account/${holder.accountNumber}?limit=5`, { headers: { authorization: holder.token } }), 200, 'transaction list');
  return body.data[0]?.transactions[0]?.transactionId;
}

async function transfer(baseUrl: string, from: Holder, to: Holder): Promise<string> {
  const body = { userId: from.userId, debitAccountKey: from.userName, creditAccountKey: to.userName, currency: 'USD', balance: randomInt(1, 100) / 100, tpin: Number(from.tpin) };
  const answer = await call(baseUrl, 'POST', '/v1/account/transfer_balance', { headers: { authorization: from.token, 'idempotency-key': randomUUID() }, body });
  return expectStatus(answer, 200, 'transfer').data.transactionId as string;
}

const diff = (after: ReadCounts, before: ReadCounts): ReadCounts => ({
  standby: after.standby - before.standby,
  primaryLagging: after.primaryLagging - before.primaryLagging,
  primaryUnavailable: after.primaryUnavailable - before.primaryUnavailable,
});

interface World {
  baseUrl: string;
  server: RunningServer;
  alice: Holder;
  bob: Holder;
  carol: Holder;
  carolList: string;
}

/**
 * ROUNDS times: alice's transfer, then at once alice's list (it must show that transfer), then
 * carol's list and counters (they must be what they were). Answers where alice's and carol's reads went.
 */
async function rounds(world: World, label: string): Promise<{ alice: ReadCounts; carol: ReadCounts }> {
  const counts = world.server.app.ctx.reads!.counts;
  const zero: ReadCounts = { standby: 0, primaryLagging: 0, primaryUnavailable: 0 };
  const alice = { ...zero };
  const carol = { ...zero };
  let missed = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const id = await transfer(world.baseUrl, world.alice, world.bob);
    let before = { ...counts };
    const listed = await newestListed(world.baseUrl, world.alice);
    for (const [key, value] of Object.entries(diff(counts, before))) alice[key as keyof ReadCounts] += value;
    if (listed !== id) missed++;
    before = { ...counts };
    const carolList = JSON.stringify(expectStatus(await call(world.baseUrl, 'GET', `/v1/transaction/account/${world.carol.accountNumber}`, { headers: { authorization: world.carol.token } }), 200, 'carol list').data);
    const summary = expectStatus(await call(world.baseUrl, 'GET', `/v1/account/${world.carol.accountNumber}/summary`, { headers: { authorization: world.carol.token } }), 200, 'carol summary').data;
    for (const [key, value] of Object.entries(diff(counts, before))) carol[key as keyof ReadCounts] += value;
    if (carolList !== world.carolList || summary.totalTransactions !== 1) throw new Error(`${label}: carol's reads changed: ${carolList} ${JSON.stringify(summary)}`);
  }
  log(`${label}: alice's reads ${JSON.stringify(alice)}, carol's ${JSON.stringify(carol)}`);
  check(missed === 0, `${label}: alice's transfer was in her list on the very next request, ${ROUNDS} times in a row (missed ${missed})`);
  return { alice, carol };
}

async function main(): Promise<void> {
  const limit = setTimeout(() => {
    console.error(`read-routing test: still running after ${TEST_LIMIT_MS / 1000} s; giving up`);
    void formation.command('destroy').finally(() => process.exit(1));
  }, TEST_LIMIT_MS);
  limit.unref();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-read-routing-'));
  let server: RunningServer | undefined;
  try {
    log(`formation in ${haDir}, ports ${basePort}-${basePort + 2}`);
    await formation.command('destroy');
    const started = await formation.command('start');
    const databaseUrl = /DATABASE_URL=(\S+)/.exec(started)?.[1];
    if (!databaseUrl) throw new Error(`no DATABASE_URL from formation.sh start:\n${started}`);
    const secondary = (await formation.nodes()).find((node) => node.reported === 'secondary');
    if (!secondary) throw new Error('the formation has no secondary');
    const readUrl = `postgres://postgres@127.0.0.1:${secondary.port}/kestrel`;
    const [recovery] = await query<{ standby: boolean }>(readUrl, 'SELECT pg_is_in_recovery() AS standby');
    check(recovery?.standby === true, `DATABASE_READ_URL (${secondary.name}, port ${secondary.port}) is a standby: pg_is_in_recovery() is true`);

    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      DATABASE_READ_URL: readUrl,
      // The formation's URI names no user: the role is libpq's PGUSER, as for any deployment.
      PGUSER: FORMATION_USER,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRET_KEY: 'read-routing-test-'.padEnd(64, 'k'),
      NODE_ENV: 'test',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
    });
    server = await startServer(config, pino({ level: 'warn' }));
    const address = server.app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const db = server.database.db;
    const reader = { firstName: 'Reader', lastName: 'Number' };
    const alice = await createHolder(baseUrl, db, reader);
    const bob = await createHolder(baseUrl, db, reader);
    const carol = await createHolder(baseUrl, db, reader);
    await fundWallet(db, alice.accountId, 1_000_000);
    await fundWallet(db, carol.accountId, 5_000);
    // carol's list as the primary has it; it must read the same wherever it is read.
    const carolList = JSON.stringify(
      expectStatus(await call(baseUrl, 'GET', `/v1/transaction/account/${carol.accountNumber}`, { headers: { authorization: carol.token } }), 200, 'carol list').data,
    );
    const world: World = { baseUrl, server, alice, bob, carol, carolList };

    // 1. The standby replaying as it does.
    const replaying = await rounds(world, 'standby replaying');
    check(replaying.carol.standby >= ROUNDS, `carol's reads ran on the standby (${replaying.carol.standby} of ${2 * ROUNDS}; at least ${ROUNDS})`);
    const [seen] = await query<{ n: number }>(readUrl, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'kestrel-reads'");
    check((seen?.n ?? 0) > 0, `the standby itself has the API's read connections (pg_stat_activity: ${seen?.n} kestrel-reads)`);

    // 2. The standby's replay paused: the standby has every commit (synchronous) but shows none of the new ones.
    await query(readUrl, 'SELECT pg_wal_replay_pause()');
    const paused = await rounds(world, 'standby replay paused');
    check(
      paused.alice.standby === 0 && paused.carol.standby === 0 && paused.alice.primaryLagging > 0 && paused.alice.primaryLagging + paused.alice.primaryUnavailable === ROUNDS,
      `with replay paused no read ran on the standby; alice's went to the primary (${paused.alice.primaryLagging} of ${ROUNDS} as lagging)`,
    );
    await query(readUrl, 'SELECT pg_wal_replay_resume()');
    const [caughtUp] = await query<{ standby: boolean }>(readUrl, 'SELECT pg_is_in_recovery() AS standby');
    check(caughtUp?.standby === true, 'replay resumed; the node is still the standby');

    // 3. The standby stopped: reads answer from the primary, never an error.
    const counts = server.app.ctx.reads!.counts;
    await run('runuser', ['-u', 'postgres', '--', 'env', 'PATH=/usr/lib/postgresql/15/bin:/usr/bin:/bin', 'HOME=/var/lib/postgresql', 'pg_autoctl', 'stop', '--pgdata', path.join(haDir, secondary.name), '--fast']);
    for (let i = 0; i < 100; i++) {
      const gone = await query(readUrl, 'SELECT 1').then(
        () => false,
        () => true,
      );
      if (gone) break;
      await sleep(100);
    }
    const aliceNewest = await newestListed(baseUrl, alice);
    const before = { ...counts };
    const since = Date.now();
    let reads = 0;
    for (let i = 0; i < ROUNDS; i++) {
      if ((await newestListed(baseUrl, alice)) !== aliceNewest) throw new Error("alice's list changed with the standby stopped");
      const list = expectStatus(await call(baseUrl, 'GET', `/v1/transaction/account/${carol.accountNumber}`, { headers: { authorization: carol.token } }), 200, 'carol list');
      if (JSON.stringify(list.data) !== carolList) throw new Error("carol's list changed with the standby stopped");
      expectStatus(await call(baseUrl, 'GET', `/v1/account/${alice.accountNumber}/summary`, { headers: { authorization: alice.token } }), 200, 'alice summary');
      expectStatus(await call(baseUrl, 'GET', `/v1/account/${alice.accountNumber}/chart`, { headers: { authorization: alice.token } }), 200, 'alice chart');
      reads += 4;
    }
    const stopped = diff(counts, before);
    log(`standby stopped: ${reads} reads in ${Date.now() - since} ms, ${JSON.stringify(stopped)}`);
    check(stopped.standby === 0 && stopped.primaryUnavailable === reads, `with the standby stopped every one of ${reads} reads answered 200 from the primary`);

    // 4. The standby back (its keeper started again; it catches up): reads go to it again, without a restart of the API.
    await formation.command('start');
    const backSince = Date.now();
    const standbyBefore = counts.standby;
    while (counts.standby === standbyBefore) {
      if (Date.now() - backSince > 60_000) throw new Error('FAILED: no read ran on the standby within 60 s of its return');
      expectStatus(await call(baseUrl, 'GET', `/v1/transaction/account/${carol.accountNumber}`, { headers: { authorization: carol.token } }), 200, 'carol list');
      await sleep(100);
    }
    log(`standby back: the first read on it ${Date.now() - backSince} ms after the formation was whole again`);
    const back = await rounds(world, 'standby back');
    check(back.carol.standby >= ROUNDS, `once the standby is back, reads run on it again (${back.carol.standby} of carol's ${2 * ROUNDS}; at least ${ROUNDS})`);
    log('read-routing test passed');
  } finally {
    await server?.stop().catch((error: unknown) => log(`server stop: ${(error as Error).message}`));
    await formation.command('destroy').catch((error: unknown) => log(`formation destroy: ${(error as Error).message}`));
    rmSync(dataDir, { recursive: true, force: true });
    clearTimeout(limit);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

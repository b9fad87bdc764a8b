/**
 * `npm run test:failover` (as root: it runs the formation as the `postgres` user): failover under
 * load on a real pg_auto_failover formation (scripts/ha/formation.sh), through the real API
 * server process on the multi-host URI. README "Failover under load" lists what it proves.
 *
 * 16 clients send transfers, card payments and wallet payments over HTTP; each request has its
 * own Idempotency-Key and is sent again with the same key after a 503 or a broken connection,
 * until it is acknowledged. In the middle of each run the primary goes away:
 *   1. `pg_autoctl perform failover`;
 *   2. the primary machine lost: its keeper's process tree (keeper, postmaster, backends)
 *      killed with SIGKILL, so the monitor has to notice and promote the standby;
 *   3. the lost node's keeper started again: it rejoins as the standby; then a failover back to it;
 *   4. the primary's postmaster alone SIGKILLed: its keeper starts it again (or the monitor fails over).
 * After each run, on the new primary: every acknowledged movement is in the ledger (0 lost),
 * every wallet's balance is exactly what the acknowledged movements make it (so none counted
 * twice), `ledger:verify` passes, and the wallet total moved only by the card payments that came in.
 *
 * `--pgbouncer` (`npm run test:pgbouncer`): no formation; the same clients and checks through
 * PgBouncer in transaction mode with two API processes (README "Behind PgBouncer").
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { asCents } from '@kestrel/shared';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { ensureOperator } from '../../src/modules/operator/operator.service.ts';
import { gatewayFeeCents } from '../../src/modules/payments/fees.ts';
import { storeFields, storeImages, webPayBodyFor } from '../gateway-fixtures.ts';
import { fundWallet } from '../ledger-fixtures.ts';
import { childrenOf } from '../processes.ts';
import { apiDir, call, createHolder, expectStatus, FORMATION_USER, formationAt, healthy, isPrimary, isSecondary, log, query, repoDir, run, startApi, stopApis, type Answer, type Holder, type Node } from './ha-harness.ts';

/** A formation of its own (directory, ports), so a development formation on the defaults is left alone. */
const formation = formationAt('/tmp/kestrel-failover-test', 5460);
const haDir = formation.dir;
const basePort = formation.basePort;
const secretKey = 'failover-test-'.padEnd(64, 'k');
const CLIENTS = 16;
const OPENING_CENTS = 1_000_000;
/** What every account pays on a gateway payment (fixed 0, percentage 2: README, fees). */
const feeOf = (cents: number) => gatewayFeeCents(asCents(cents), asCents(0), '2.00');
/** A lost primary must be replaced within this; README "How fast a lost primary is replaced". */
const LOST_MACHINE_BUDGET_S = 15;
/** A request not acknowledged after this is a failure of the test. */
const GIVE_UP_MS = 90_000;

/** The pid of `pg_autoctl run --pgdata <dir>`, the node's keeper (its supervisor process). */
function keeperPid(dir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(args[0] ?? '') === 'pg_autoctl' && args[1] === 'run' && args[3] === dir) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no keeper runs for ${dir}`);
}

/** The machine lost: the keeper, its services, the postmaster and its backends, all SIGKILLed by pid at once. */
function loseMachine(nodeName: string): number[] {
  const dir = path.join(haDir, nodeName);
  const postmaster = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const tree: number[] = [];
  const collect = (pid: number) => {
    tree.push(pid);
    for (const child of childrenOf(pid)) collect(child);
  };
  collect(keeperPid(dir));
  if (!tree.includes(postmaster)) throw new Error(`postmaster ${postmaster} is not under the keeper of ${nodeName}`);
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // a backend that ended by itself
    }
  }
  return tree;
}

async function createStore(baseUrl: string, db: Db, owner: Holder): Promise<Record<string, string>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(storeFields(owner, { storeName: `Failover Shop ${process.pid}` }))) form.append(key, value);
  for (const file of storeImages()) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: 'image/png' }), file.name);
  const created = expectStatus(await call(baseUrl, 'POST', '/v1/payment_gateway_store/create', { headers: { authorization: owner.token }, form }), 201, 'store create');
  const { storeId, storeKey } = created.data as { storeId: string; storeKey: string };
  const email = `ops-${process.pid}-${randomInt(1e9)}@example.test`;
  await ensureOperator(db, { email, password: 'operator-secret' });
  const login = expectStatus(await call(baseUrl, 'POST', '/v1/auth/login', { body: { email, password: 'operator-secret' } }), 200, 'operator login');
  expectStatus(
    await call(baseUrl, 'POST', `/v1/operator/stores/${storeId}/approve`, { headers: { authorization: login.data.token }, body: { reason: 'Documents checked' } }),
    200,
    'store approve',
  );
  return { storeId, storeKey };
}

type Kind = 'transfer' | 'card payment' | 'wallet payment';

interface Attempt {
  sentAt: number;
  at: number;
  status: number;
}

interface Acknowledged {
  kind: Kind;
  /** The ledger's transaction id the API answered (transactionId / tnxId). */
  ledgerId: string;
  cents: number;
  at: number;
}

interface World {
  baseUrl: string;
  store: Record<string, string>;
  storeOwner: Holder;
  recipient: Holder;
  clients: { kind: Kind; holder: Holder }[];
  /** Every wallet's balance as the acknowledged movements make it. */
  expected: Map<string, number>;
  acknowledged: Acknowledged[];
  attempts: Attempt[];
  unexpected: string[];
}

/**
 * The card payments' "try again later" answer, which a careful client also retries with the
 * same key: a card attempt cut off by the switch keeps its hold on the payment for
 * CARD_ATTEMPT_HOLD_SECONDS (409 attempt_in_progress, with Retry-After). Everything else during
 * the switch is a 503 with Retry-After — the sandbox card processor too, whose records are in
 * Kestrel's own database (a 502 card_processor_unavailable here would blame a processor that
 * is not there, and fails the run).
 */
const retryLater = (answer: Answer) => answer.status === 409 && answer.body?.code === 'attempt_in_progress' && answer.headers.get('retry-after') !== null;

/** Sends one request until it is answered 200, with the same key each time; a 503 or a broken connection is retried. */
async function untilAcknowledged(world: World, send: () => Promise<Answer>): Promise<Answer> {
  const first = Date.now();
  for (;;) {
    const sentAt = Date.now();
    let answer: Answer | undefined;
    try {
      answer = await send();
    } catch {
      answer = undefined;
    }
    const status = answer?.status ?? 0;
    world.attempts.push({ sentAt, at: Date.now(), status });
    if (answer && status === 200) return answer;
    if (answer && status === 503 && answer.headers.get('retry-after') === null) world.unexpected.push('503 without Retry-After');
    if (answer && status !== 503 && !retryLater(answer)) {
      world.unexpected.push(`${status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      throw new Error(`unexpected answer ${status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    if (Date.now() - first > GIVE_UP_MS) throw new Error(`a request was not acknowledged within ${GIVE_UP_MS / 1000} s (last: ${status})`);
    // Retry-After says 1 s; a quarter of that measures the switch more finely.
    await sleep(250);
  }
}

const move = (world: World, accountId: string, cents: number) => world.expected.set(accountId, (world.expected.get(accountId) ?? 0) + cents);

/** One movement of `kind` by `holder`, acknowledged, and booked into the expected balances. */
async function oneMovement(world: World, kind: Kind, holder: Holder): Promise<void> {
  const cents = randomInt(100, 1_000);
  if (kind === 'transfer') {
    const key = randomUUID();
    const body = { userId: holder.userId, debitAccountKey: holder.userName, creditAccountKey: world.recipient.userName, currency: 'USD', balance: cents / 100, tpin: Number(holder.tpin) };
    const answer = await untilAcknowledged(world, () => call(world.baseUrl, 'POST', '/v1/account/transfer_balance', { headers: { authorization: holder.token, 'idempotency-key': key }, body }));
    world.acknowledged.push({ kind, ledgerId: answer.body.data.transactionId, cents, at: Date.now() });
    move(world, holder.accountId, -cents);
    move(world, world.recipient.accountId, cents);
  } else if (kind === 'card payment') {
    const key = randomUUID();
    const body = { ...webPayBodyFor({ amount: cents / 100 }), type: 'card', number: '4242 4242 4242 4242', expiresIn: '12/34', cvc: '937' };
    const answer = await untilAcknowledged(world, () => call(world.baseUrl, 'POST', '/v1/payment/web-pay/complete/direct', { headers: { ...world.store, 'idempotency-key': key }, body }));
    world.acknowledged.push({ kind, ledgerId: answer.body.data.tnxId, cents, at: Date.now() });
    move(world, world.storeOwner.accountId, cents - feeOf(cents));
  } else {
    const createKey = randomUUID();
    const order = webPayBodyFor({ amount: cents / 100 });
    const created = await untilAcknowledged(world, () => call(world.baseUrl, 'POST', '/v1/payment/web-pay', { headers: { ...world.store, 'idempotency-key': createKey }, body: order }));
    const paymentId = created.body.data.paymentId as string;
    const payKey = randomUUID();
    const answer = await untilAcknowledged(world, () =>
      call(world.baseUrl, 'POST', `/v1/payment/complete/kestrel/${paymentId}`, {
        headers: { authorization: holder.token, 'idempotency-key': payKey },
        body: { accountNumber: holder.accountNumber, tpin: holder.tpin },
      }),
    );
    world.acknowledged.push({ kind, ledgerId: answer.body.data.tnxId, cents, at: Date.now() });
    move(world, holder.accountId, -cents);
    move(world, world.storeOwner.accountId, cents - feeOf(cents));
  }
}

interface Figures {
  run: string;
  acknowledged: number;
  lost: number;
  doubled: number;
  unavailableS: number;
  answered503: number;
  /** Card payments answered "try again later" (409 attempt_in_progress). */
  answeredLater: number;
  firstSuccessS: number;
  ledgerVerify: string;
  walletTotal: string;
  /** The synchronous standby on the primary once the run settled (checkSyncStandby). */
  syncStandby: string;
}

interface SyncCheck {
  when: string;
  primary: string;
  synchronous_standby_names: string;
  /** pg_stat_replication on the primary: application name, sync_state and state of each standby. */
  standbys: string;
  /** Waited this long for it (a standby reconnects to a new primary after a switch). */
  waitedS: number;
  /** False where a standby is expected and the primary did not have it as synchronous. */
  ok: boolean;
}

const syncChecks: SyncCheck[] = [];
/** How long a standby may take to be the primary's synchronous standby again after a switch. */
const SYNC_WAIT_MS = 60_000;

/**
 * Whether the primary (`node`) really has a synchronous standby: pg_auto_failover's
 * `synchronous_standby_names` (`ANY 1 (pgautofailover_standby_N)`) set, and the standby in
 * `pg_stat_replication` with sync_state `quorum` (or `sync`). Without it an acknowledged payment
 * could be lost with the primary. `standbyExpected` false (the standby's machine was lost) only
 * reports what the primary has then: pg_auto_failover turns synchronous replication off.
 */
async function checkSyncStandby(when: string, node: Node, standbyExpected: boolean): Promise<SyncCheck> {
  const url = `postgres://postgres@127.0.0.1:${node.port}/kestrel?sslmode=disable`;
  const since = Date.now();
  for (;;) {
    const [row] = await query<{ names: string; standbys: string; synced: boolean | null }>(
      url,
      `SELECT current_setting('synchronous_standby_names') AS names,
              coalesce(string_agg(application_name || ' ' || sync_state || ' (' || state || ')', ', '), '') AS standbys,
              bool_or(sync_state IN ('quorum', 'sync')) AS synced
         FROM pg_stat_replication`,
    ).catch((): { names: string; standbys: string; synced: boolean | null }[] => []);
    const synchronous = row !== undefined && row.names.startsWith('ANY 1 (') && row.synced === true;
    const waited = Date.now() - since;
    if (synchronous || !standbyExpected || waited > SYNC_WAIT_MS) {
      const check: SyncCheck = {
        when,
        primary: `${node.name} (${node.port})`,
        synchronous_standby_names: row ? row.names || "''" : 'unreachable',
        standbys: row?.standbys || 'none',
        waitedS: Math.round(waited / 100) / 10,
        ok: synchronous || !standbyExpected,
      };
      syncChecks.push(check);
      log(`synchronous standby, ${when}: ${JSON.stringify(check)}`);
      return check;
    }
    await sleep(250);
  }
}

/** One table cell: the standby and its sync_state, or why there is none. */
const syncCell = (check: SyncCheck, standbyExpected: boolean) =>
  check.ok && standbyExpected ? `${check.standbys}` : standbyExpected ? `MISSING: ${check.synchronous_standby_names}; ${check.standbys}` : `no standby (lost): names ${check.synchronous_standby_names}`;

/** The run's checks on the primary the monitor names now, through a connection of their own. */
async function check(world: World, runName: string, acknowledged: Acknowledged[], cardCentsIn: number, walletTotalBefore: number, primaryUrl: string): Promise<Pick<Figures, 'lost' | 'doubled' | 'ledgerVerify' | 'walletTotal'> & { walletTotalAfter: number }> {
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    const ids = acknowledged.map((ack) => ack.ledgerId);
    const found = await client.query<{ transaction_id: string }>('SELECT transaction_id FROM ledger_transactions WHERE transaction_id = ANY($1::text[])', [ids]);
    const present = new Set(found.rows.map((row) => row.transaction_id));
    const lost = ids.filter((id) => !present.has(id));
    // A wallet's balance as a person sees it: the folded part plus the credits pending on a busy row.
    const balances = await client.query<{ account_id: string; balance_cents: string }>(
      "SELECT account_id, balance_cents FROM wallet_balances WHERE account_id = ANY($1::uuid[]) AND currency = 'USD'",
      [[...world.expected.keys()]],
    );
    // A movement done twice takes or gives its amount twice: some balance differs from the acknowledged movements'.
    let doubledCents = 0;
    const wrong: string[] = [];
    for (const row of balances.rows) {
      const difference = Number(row.balance_cents) - (world.expected.get(row.account_id) ?? 0);
      if (difference !== 0) {
        // Which of its ledger transactions no acknowledged movement accounts for.
        const strays = await client.query<{ transaction_id: string; kind: string; amount_cents: string }>(
          `SELECT t.transaction_id, t.kind, p.amount_cents FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
           JOIN ledger_accounts a ON a.id = p.ledger_account_id WHERE a.account_id = $1 AND t.kind <> 'funding' AND NOT (t.transaction_id = ANY($2::text[]))`,
          [row.account_id, world.acknowledged.map((ack) => ack.ledgerId)],
        );
        wrong.push(`${row.account_id}: ${difference} cents off; not acknowledged: ${JSON.stringify(strays.rows)}`);
        doubledCents += Math.abs(difference);
      }
    }
    const doubledMovements = wrong.length;
    const total = await client.query<{ total: string }>('SELECT COALESCE(sum(balance_cents), 0)::text AS total FROM wallet_balances');
    const walletTotalAfter = Number(total.rows[0]?.total);
    // Transfers and wallet payments move money between wallets (less the fee); only card money comes in.
    const fees = acknowledged.filter((ack) => ack.kind !== 'transfer').reduce((sum, ack) => sum + feeOf(ack.cents), 0);
    const walletExpected = walletTotalBefore + cardCentsIn - fees;

    const verify = await run(process.execPath, ['--import', 'tsx', path.join(apiDir, 'src/modules/ledger/verify-cli.ts')], {
      cwd: apiDir,
      env: { ...process.env, DATABASE_URL: primaryUrl, SECRET_KEY: secretKey, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'kestrel-failover-verify-')), LOG_LEVEL: 'silent' },
    }).then(
      () => 'OK',
      (error: { stdout?: string; stderr?: string }) => `FAILED ${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    if (lost.length) log(`${runName}: LOST ${lost.length}: ${lost.slice(0, 5).join(', ')}`);
    if (wrong.length) log(`${runName}: balances off (${doubledCents} cents): ${wrong.slice(0, 5).join('; ')}`);
    return {
      lost: lost.length,
      doubled: doubledMovements,
      ledgerVerify: verify,
      walletTotal: walletTotalAfter === walletExpected ? 'unchanged' : `off by ${walletTotalAfter - walletExpected} cents`,
      walletTotalAfter,
    };
  } finally {
    await client.end();
  }
}

async function walletTotal(db: Db): Promise<number> {
  const { rows } = await sql<{ total: string }>`SELECT COALESCE(sum(balance_cents), 0)::text AS total FROM wallet_balances`.execute(db);
  return Number(rows[0]?.total);
}

/**
 * One run: the 16 clients for a few seconds, then `switchOver` (answers when it was done),
 * the clients until a request sent after the first refusal succeeds and a few seconds more,
 * then the checks on the new primary.
 */
async function loadRun(world: World, db: Db, runName: string, switchOver: () => Promise<void>, settle: () => Promise<Node[]>, standbyExpected = true): Promise<Figures> {
  const walletTotalBefore = await walletTotal(db);
  const firstAck = world.acknowledged.length;
  const firstAttempt = world.attempts.length;
  let running = true;
  const clients = world.clients.map(async ({ kind, holder }) => {
    while (running) await oneMovement(world, kind, holder);
  });
  const failure = Promise.all(clients).then(() => undefined);
  let clientError: unknown;
  failure.catch((error: unknown) => {
    clientError = error;
  });
  await Promise.race([sleep(3_000), failure]);
  const switchAt = Date.now();
  log(`${runName}: switching with ${world.acknowledged.length - firstAck} movements acknowledged so far`);
  await switchOver();
  // Until a request sent after the first refusal (or after the switch, when none was refused) is acknowledged.
  const since = Date.now();
  let firstSuccessAt: number | undefined;
  while (firstSuccessAt === undefined) {
    const attempts = world.attempts.slice(firstAttempt).filter((a) => a.sentAt >= switchAt);
    const firstRefusal = attempts.find((a) => a.status === 503 || a.status === 0);
    const from = firstRefusal?.sentAt ?? switchAt;
    firstSuccessAt = attempts.find((a) => a.status === 200 && a.sentAt > from)?.at;
    if (clientError) throw clientError;
    if (Date.now() - since > GIVE_UP_MS) throw new Error(`${runName}: no request succeeded within ${GIVE_UP_MS / 1000} s of the switch`);
    if (firstSuccessAt === undefined) await sleep(100);
  }
  await sleep(3_000);
  running = false;
  await failure;
  const all = await settle();
  const primary = all.find(isPrimary) ?? all.find((node) => node.reported === 'wait_primary' || node.goal === 'wait_primary');
  if (!primary) throw new Error(`${runName}: no primary after the switch: ${JSON.stringify(all)}`);

  const acknowledged = world.acknowledged.slice(firstAck);
  const attempts = world.attempts.slice(firstAttempt);
  const refused = attempts.filter((a) => (a.status === 503 || a.status === 0) && a.sentAt >= switchAt - 1_000);
  const answered503 = refused.filter((a) => a.status === 503);
  const later = attempts.filter((a) => a.status === 409);
  const cardCentsIn = acknowledged.filter((ack) => ack.kind === 'card payment').reduce((sum, ack) => sum + ack.cents, 0);
  const checked = await check(world, runName, acknowledged, cardCentsIn, walletTotalBefore, `postgres://postgres@127.0.0.1:${primary.port}/kestrel?sslmode=disable`);
  const sync = await checkSyncStandby(`after ${runName}`, primary, standbyExpected);
  const figures: Figures = {
    run: `${runName} → ${primary.name}`,
    acknowledged: acknowledged.length,
    lost: checked.lost,
    doubled: checked.doubled,
    unavailableS: refused.length ? (Math.max(...refused.map((a) => a.at)) - Math.min(...refused.map((a) => a.at))) / 1000 : 0,
    answered503: answered503.length,
    answeredLater: later.length,
    firstSuccessS: (firstSuccessAt - switchAt) / 1000,
    ledgerVerify: checked.ledgerVerify,
    walletTotal: checked.walletTotal,
    syncStandby: syncCell(sync, standbyExpected),
  };
  log(`${runName}: ${JSON.stringify(figures)}`);
  return figures;
}

/** The store, the transfers' recipient and the 16 clients (each with a funded account of its own). */
async function createWorld(baseUrl: string, db: Db): Promise<World> {
  const storeOwner = await createHolder(baseUrl, db, { firstName: 'Failover', lastName: 'Client' });
  const recipient = await createHolder(baseUrl, db, { firstName: 'Failover', lastName: 'Client' });
  const store = await createStore(baseUrl, db, storeOwner);
  const kinds: Kind[] = ['transfer', 'card payment', 'wallet payment'];
  const clients: World['clients'] = [];
  for (let i = 0; i < CLIENTS; i += 1) {
    const holder = await createHolder(baseUrl, db, { firstName: 'Failover', lastName: 'Client' });
    await fundWallet(db, holder.accountId, OPENING_CENTS);
    // A test of failover, not of step-up: each client moves more than the US$ 1,000.00 a day an
    // account may move on the TPIN alone (README "Step-up for large movements").
    await db.updateTable('accounts').set({ stepUpThresholdCents: OPENING_CENTS * 1000 }).where('id', '=', holder.accountId).execute();
    clients.push({ kind: kinds[i % kinds.length]!, holder });
  }
  const world: World = { baseUrl, store, storeOwner, recipient, clients, expected: new Map(), acknowledged: [], attempts: [], unexpected: [] };
  for (const holder of [storeOwner, recipient, ...clients.map((c) => c.holder)]) world.expected.set(holder.accountId, 0);
  for (const { holder } of clients) world.expected.set(holder.accountId, OPENING_CENTS);
  log(`${CLIENTS} clients: ${kinds.map((kind) => `${clients.filter((c) => c.kind === kind).length} ${kind}s`).join(', ')}`);
  return world;
}

const pgbouncerScript = path.join(repoDir, 'scripts/ha/pgbouncer.sh');
const pgbouncerEnv = { ...process.env, KESTREL_PGBOUNCER_DIR: process.env.KESTREL_PGBOUNCER_DIR ?? '/tmp/kestrel-pgbouncer-test', KESTREL_PGBOUNCER_PORT: process.env.KESTREL_PGBOUNCER_PORT ?? '6441' };
let pgbouncerDatabase: { adminUrl: string; name: string } | undefined;

/**
 * `--pgbouncer`: no switch, but PgBouncer (transaction mode) between two API processes
 * (WEB_CONCURRENCY=2, DATABASE_NAMED_STATEMENTS=off) and the machine's PostgreSQL, in a
 * database of its own: the same 16 clients for 10 s and the same checks.
 */
async function throughPgbouncer(): Promise<void> {
  const adminUrl = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kestrel_pgbouncer_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    pgbouncerDatabase = { adminUrl, name };
    // PgBouncer drops the timeouts Kestrel sends at start-up: this database carries them instead.
    await admin.query(`ALTER DATABASE ${name} SET statement_timeout = '15s'`);
    await admin.query(`ALTER DATABASE ${name} SET idle_in_transaction_session_timeout = '15s'`);
  } finally {
    await admin.end();
  }
  const direct = new URL(adminUrl);
  direct.pathname = `/${name}`;
  await run('bash', [pgbouncerScript, 'start'], { env: pgbouncerEnv });
  const bouncerUrl = `postgres://postgres@127.0.0.1:${pgbouncerEnv.KESTREL_PGBOUNCER_PORT}/${name}`;
  log(`PgBouncer (transaction mode) at ${bouncerUrl}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-pgbouncer-'));
  const api = await startApi(bouncerUrl, dataDir, { SECRET_KEY: secretKey, WEB_CONCURRENCY: '2', DATABASE_NAMED_STATEMENTS: 'off' });
  log(`API server ${api.child.pid} (WEB_CONCURRENCY=2) at ${api.baseUrl} (log ${api.logFile})`);
  const handle = await openDatabase({ databaseUrl: bouncerUrl, poolSize: 4, namedStatements: false });
  try {
    const world = await createWorld(api.baseUrl, handle.db);
    const walletTotalBefore = await walletTotal(handle.db);
    let running = true;
    const clients = Promise.all(world.clients.map(async ({ kind, holder }) => {
      while (running) await oneMovement(world, kind, holder);
    }));
    await Promise.race([sleep(10_000), clients]);
    running = false;
    await clients;
    const cardCentsIn = world.acknowledged.filter((ack) => ack.kind === 'card payment').reduce((sum, ack) => sum + ack.cents, 0);
    const checked = await check(world, 'through PgBouncer', world.acknowledged, cardCentsIn, walletTotalBefore, direct.toString());
    const refused = world.attempts.filter((a) => a.status !== 200).length;
    const line = { acknowledged: world.acknowledged.length, refused, lost: checked.lost, doubled: checked.doubled, ledgerVerify: checked.ledgerVerify, walletTotal: checked.walletTotal };
    log(`through PgBouncer, WEB_CONCURRENCY=2, DATABASE_NAMED_STATEMENTS=off, 10 s: ${JSON.stringify(line)}`);
    if (checked.lost || checked.doubled || checked.ledgerVerify !== 'OK' || checked.walletTotal !== 'unchanged' || refused || world.unexpected.length || !world.acknowledged.length) {
      console.error(`FAIL through PgBouncer: ${JSON.stringify(line)} ${world.unexpected.slice(0, 3).join(' | ')}`);
      process.exitCode = 1;
    } else {
      console.log('OK: through PgBouncer every movement was answered 200, none lost or doubled, the ledger verifies.');
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--pgbouncer')) return throughPgbouncer();
  if (process.getuid?.() !== 0) throw new Error('run as root: the formation runs as the postgres user (runuser)');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-failover-'));
  log(`starting the formation in ${haDir} (ports ${basePort}–${basePort + 2})`);
  await formation.command('destroy');
  await formation.command('start');
  log(await formation.command('tune'));
  const uri = (await formation.command('uri')).trim();
  log(`DATABASE_URL=${uri}`);

  const api = await startApi(uri, dataDir, { SECRET_KEY: secretKey });
  log(`API server ${api.child.pid} at ${api.baseUrl} (log ${api.logFile})`);
  // The URI as printed, without a user: this process's connections take the role as the API's do (PGUSER).
  const handle = await openDatabase({ databaseUrl: uri, connectionDefaults: { user: FORMATION_USER }, poolSize: 4 });
  try {
    const world = await createWorld(api.baseUrl, handle.db);

    const monitorDir = path.join(haDir, 'monitor');
    const performFailover = async () => {
      await run('runuser', ['-u', 'postgres', '--', 'env', 'PATH=/usr/lib/postgresql/15/bin:/usr/bin:/bin', 'pg_autoctl', 'perform', 'failover', '--pgdata', monitorDir]);
    };
    const results: Figures[] = [];

    const before = await formation.waitForNodes('a primary and a secondary', healthy);
    const first = before.find(isPrimary)!;
    await checkSyncStandby('formation started', first, true);
    results.push(await loadRun(world, handle.db, `1. perform failover from ${first.name}`, performFailover, () => formation.waitForNodes('a primary and a secondary', healthy)));

    const now = await formation.waitForNodes('a primary and a secondary', healthy);
    const victim = now.find(isPrimary)!;
    let killed: number[] = [];
    results.push(
      await loadRun(
        world,
        handle.db,
        `2. machine of ${victim.name} lost`,
        async () => {
          killed = loseMachine(victim.name);
          log(`SIGKILLed ${victim.name}'s keeper, postmaster and backends: pids ${killed.join(' ')}`);
        },
        () => formation.waitForNodes('a new primary', (all) => all.some((node) => node.name !== victim.name && ['wait_primary', 'primary'].includes(node.reported))),
        false,
      ),
    );

    log(`3. ${victim.name}'s keeper started again`);
    const returnedAt = Date.now();
    await formation.command('start');
    const rejoined = await formation.waitForNodes(`${victim.name} as the secondary`, (all) => healthy(all) && all.some((node) => node.name === victim.name && isSecondary(node)));
    log(`${victim.name} is the secondary again after ${((Date.now() - returnedAt) / 1000).toFixed(1)} s: ${rejoined.map((n) => `${n.name} ${n.reported}`).join(', ')}`);
    await checkSyncStandby(`${victim.name} back as the secondary`, rejoined.find(isPrimary)!, true);
    results.push(await loadRun(world, handle.db, `3. perform failover back to ${victim.name}`, performFailover, () => formation.waitForNodes('a primary and a secondary', healthy)));

    // The postmaster alone killed: its keeper is alive and starts it again in place.
    const restarted = (await formation.waitForNodes('a primary and a secondary', healthy)).find(isPrimary)!;
    results.push(
      await loadRun(
        world,
        handle.db,
        `4. postmaster of ${restarted.name} killed`,
        async () => {
          const pid = Number(readFileSync(path.join(haDir, restarted.name, 'postmaster.pid'), 'utf8').split('\n')[0]);
          process.kill(pid, 'SIGKILL');
          log(`SIGKILLed ${restarted.name}'s postmaster (pid ${pid}); its keeper runs on`);
        },
        () => formation.waitForNodes('a primary and a secondary', healthy),
      ),
    );

    console.log('\nFailover under load (16 clients: transfers, card payments, wallet payments; each request retried with its Idempotency-Key)');
    console.table(
      results.map((r) => ({
        run: r.run,
        acknowledged: r.acknowledged,
        lost: r.lost,
        doubled: r.doubled,
        '503 answers': r.answered503,
        'card 409 (retry later)': r.answeredLater,
        'refused for (s)': r.unavailableS.toFixed(1),
        'first success after the switch (s)': r.firstSuccessS.toFixed(1),
        'ledger:verify': r.ledgerVerify,
        'wallet total': r.walletTotal,
        'synchronous standby after': r.syncStandby,
      })),
    );
    console.log('\nSynchronous standby on the primary (synchronous_standby_names; pg_stat_replication: application_name sync_state (state))');
    console.table(syncChecks.map(({ when, primary, synchronous_standby_names, standbys, waitedS, ok }) => ({ when, primary, synchronous_standby_names, standbys, 'waited (s)': waitedS.toFixed(1), ok })));
    const problems: string[] = [];
    for (const r of results) {
      if (r.lost) problems.push(`${r.run}: ${r.lost} acknowledged movements lost`);
      if (r.doubled) problems.push(`${r.run}: ${r.doubled} balances off (a movement done twice or lost)`);
      if (r.ledgerVerify !== 'OK') problems.push(`${r.run}: ledger:verify ${r.ledgerVerify}`);
      if (r.walletTotal !== 'unchanged') problems.push(`${r.run}: wallet total ${r.walletTotal}`);
      if (r.acknowledged === 0) problems.push(`${r.run}: nothing acknowledged`);
    }
    const lostMachine = results[1];
    if (lostMachine && lostMachine.firstSuccessS > LOST_MACHINE_BUDGET_S) problems.push(`${lostMachine.run}: ${lostMachine.firstSuccessS} s without payments (budget ${LOST_MACHINE_BUDGET_S} s)`);
    for (const sync of syncChecks) if (!sync.ok) problems.push(`${sync.when}: no synchronous standby on ${sync.primary} within ${SYNC_WAIT_MS / 1000} s (synchronous_standby_names ${sync.synchronous_standby_names}; ${sync.standbys})`);
    if (world.unexpected.length) problems.push(`answers other than 200 and 503 with Retry-After: ${[...new Set(world.unexpected)].slice(0, 5).join(' | ')}`);
    if (problems.length) {
      for (const problem of problems) console.error(`FAIL ${problem}`);
      process.exitCode = 1;
    } else {
      console.log('OK: no acknowledged movement lost or doubled, the ledger verifies and the wallet total holds after every switch.');
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function cleanUp(): Promise<void> {
  await stopApis();
  if (process.argv.includes('--pgbouncer')) {
    await run('bash', [pgbouncerScript, 'stop'], { env: pgbouncerEnv }).catch((error: unknown) => console.error(`pgbouncer stop: ${String(error)}`));
    if (pgbouncerDatabase) {
      const admin = new pg.Client({ connectionString: pgbouncerDatabase.adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgbouncerDatabase.name} WITH (FORCE)`).finally(() => admin.end());
    }
    return;
  }
  if (process.env.KEEP_FORMATION !== '1') await formation.command('destroy').catch((error: unknown) => console.error(`formation destroy: ${String(error)}`));
}

process.on('SIGINT', () => {
  void cleanUp().finally(() => process.exit(130));
});

try {
  await main();
} catch (error) {
  console.error(`FAIL ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}

/**
 * What the high-availability test scripts (`failover.ts`, `read-routing.ts`) share: a formation of
 * their own (scripts/ha/formation.sh on a directory and ports of its own, so a development
 * formation on the defaults is left alone) and the monitor's view of its nodes, the API server
 * started as a process of its own, the API called over HTTP, and account holders made through it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Db } from '../../src/db/database.ts';
import { accountBodyFor, registerBodyFor } from '../factories.ts';
import { answerOf, type ApiResponse } from '../harness.ts';
import { freePort } from '../processes.ts';

export const run = promisify(execFile);
export const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const repoDir = path.resolve(apiDir, '../..');

export const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${line}`);

/** One query on a connection of its own (a node that is gone fails within 2 s). */
export async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

export interface Node {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export const isPrimary = (node: Node) => node.reported === 'primary' && node.goal === 'primary';
export const isSecondary = (node: Node) => node.reported === 'secondary' && node.goal === 'secondary';
export const healthy = (all: Node[]) => all.some(isPrimary) && all.some(isSecondary);

export interface Formation {
  dir: string;
  basePort: number;
  monitorUrl: string;
  /** `formation.sh <command>` on this formation; answers its output. */
  command(name: string): Promise<string>;
  /** The nodes as the monitor has them. */
  nodes(): Promise<Node[]>;
  /** Waits until the monitor says `test` of the nodes; answers them. On a timeout prints `formation.sh diagnose`. */
  waitForNodes(what: string, test: (all: Node[]) => boolean, limitMs?: number): Promise<Node[]>;
}

/** The formation in KESTREL_HA_DIR on KESTREL_HA_PORT, else in `defaultDir` on `defaultPort`. */
export function formationAt(defaultDir: string, defaultPort: number): Formation {
  const dir = process.env.KESTREL_HA_DIR ?? defaultDir;
  const basePort = Number(process.env.KESTREL_HA_PORT ?? defaultPort);
  const env = { ...process.env, KESTREL_HA_DIR: dir, KESTREL_HA_PORT: String(basePort) };
  const monitorUrl = `postgres://postgres@127.0.0.1:${basePort}/pg_auto_failover`;
  const script = path.join(repoDir, 'scripts/ha/formation.sh');
  const command = async (name: string) => (await run('bash', [script, name], { env, maxBuffer: 10_000_000 })).stdout.trim();
  const nodes = () =>
    query<Node>(monitorUrl, 'SELECT nodename AS name, nodeport AS port, reportedstate::text AS reported, goalstate::text AS goal FROM pgautofailover.node ORDER BY nodeid');
  const waitForNodes = async (what: string, test: (all: Node[]) => boolean, limitMs = 120_000) => {
    const since = Date.now();
    for (;;) {
      const all = await nodes().catch((): Node[] => []);
      if (all.length && test(all)) return all;
      if (Date.now() - since > limitMs) {
        console.error(await command('diagnose').catch((error: Error) => error.message));
        throw new Error(`the formation did not reach "${what}" within ${limitMs / 1000} s: ${JSON.stringify(all)}`);
      }
      await sleep(250);
    }
  };
  return { dir, basePort, monitorUrl, command, nodes, waitForNodes };
}

const startedApis: ChildProcess[] = [];

/** The role the test scripts connect as where a URL (the formation's URI) names none: PGUSER for the API processes. */
export const FORMATION_USER = 'postgres';

/** `src/server.ts` in a process of its own on a free port, its output in `<dataDir>/server.log`; answers once /readyz says 200. */
export async function startApi(
  databaseUrl: string,
  dataDir: string,
  env: { SECRET_KEY: string } & Record<string, string>,
): Promise<{ baseUrl: string; child: ChildProcess; logFile: string }> {
  const port = await freePort();
  const logFile = path.join(dataDir, 'server.log');
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(apiDir, 'src/server.ts')], {
    cwd: apiDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      // A dead host is given up on after 1 s rather than 5 s.
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      // The formation's URI is used as pg_autoctl prints it, without a user: the role is libpq's PGUSER.
      PGUSER: FORMATION_USER,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  startedApis.push(child);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  const since = Date.now();
  while (Date.now() - since < 120_000) {
    if (child.exitCode !== null) throw new Error(`the API server exited (${child.exitCode}): see ${logFile}`);
    const status = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0);
    if (status === 200) return { baseUrl, child, logFile };
    await sleep(250);
  }
  throw new Error(`the API server did not become ready: see ${logFile}`);
}

/** Stops every API process `startApi` started: SIGTERM, SIGKILL after 5 s. */
export async function stopApis(): Promise<void> {
  for (const child of startedApis) {
    if (child.exitCode === null && child.pid) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
}

export type Answer = ApiResponse;

/** One HTTP call to the API (JSON or multipart), given up after 20 s; a body that is not JSON is kept as text. */
export async function call(baseUrl: string, method: string, url: string, options: { body?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: AbortSignal.timeout(20_000),
  });
  return answerOf(response);
}

/** The answer's body when its status is `status`; else an error naming `what`. */
export function expectStatus(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export interface Holder {
  userId: string;
  token: string;
  accountId: string;
  accountNumber: string;
  userName: string;
  accountEmail: string;
  tpin: string;
}

let holders = 0;
/** A registered user (e-mail verified) with a personal USD account, over HTTP; named `<firstName> <lastName> <n>`. */
export async function createHolder(baseUrl: string, db: Db, name: { firstName: string; lastName: string }): Promise<Holder> {
  holders += 1;
  const person = { firstName: name.firstName, lastName: `${name.lastName} ${holders}` };
  const registered = expectStatus(await call(baseUrl, 'POST', '/v1/user/register', { body: registerBodyFor(person) }), 201, 'register');
  const { _id: userId, token } = registered.data as { _id: string; token: string };
  // The e-mail link's click, done in the database (the mail itself is not these tests' subject).
  await db.updateTable('users').set({ isEmailVerified: true }).where('id', '=', userId).execute();
  const body = accountBodyFor({ userId }, { accountHolderName: `${person.firstName} ${person.lastName}` });
  const account = expectStatus(await call(baseUrl, 'POST', '/v1/account/create', { headers: { authorization: token }, body }), 201, 'account create').data as {
    _id: string;
    accountNumber: string;
    userName: string;
    accountEmail: string;
  };
  return { userId, token, accountId: account._id, accountNumber: account.accountNumber, userName: account.userName, accountEmail: account.accountEmail, tpin: body.users[0]!.tpin };
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  baseUrl: string;
  databaseKind: DatabaseHandle['kind'];
}

let serverPromise: Promise<TestServer> | undefined;
let databasePromise: Promise<DatabaseHandle> | undefined;

/** One migrated database per test worker: PGlite in memory, or this run's PostgreSQL database. */
export function testDatabase(): Promise<DatabaseHandle> {
  databasePromise ??= (async () => {
    const url = inject('testDatabaseUrl');
    // DATABASE_NAMED_STATEMENTS=off: the suite through PgBouncer in transaction mode (README "Behind PgBouncer").
    const handle = await openDatabase({ databaseUrl: url, poolSize: 30, namedStatements: process.env.DATABASE_NAMED_STATEMENTS !== 'off' });
    await migrate(handle.db);
    return handle;
  })();
  return databasePromise;
}

/**
 * A fresh, migrated in-memory database of the calling test file's own, opened before its tests
 * and closed after them: for what only runs on an empty database (the demo data set).
 */
export function freshDatabase(): { readonly db: Db } {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openDatabase({});
    await migrate(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });
  return {
    get db() {
      if (!handle) throw new Error('the fresh database opens in beforeAll');
      return handle.db;
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-test-'));
  const base = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SECRET_KEY: 'x'.repeat(64), LOG_LEVEL: 'silent', RATE_LIMITS: 'off' });
  return { ...base, ...overrides };
}

/** The app listening on a random loopback port, shared by the tests of this worker. */
export function testServer(): Promise<TestServer> {
  serverPromise ??= (async () => {
    const handle = await testDatabase();
    // The callback tests' listeners live on loopback, so this server accepts loopback callback
    // URLs at store creation; the tests of the refusal start an app with the production default.
    const config = testConfig({ allowPrivateCallbacks: true });
    const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    const baseUrl = await listenOnLoopback(app);
    config.publicUrl = baseUrl;
    return { app, db: handle.db, config, baseUrl, databaseKind: handle.kind };
  })();
  return serverPromise;
}

/** Starts the app listening on a random loopback port; answers its base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * Another app on the test database (as another API process on it would be), with `overrides` on
 * the test settings and a card processor of its own when given, listening on loopback. The
 * caller closes it.
 */
export async function extraTestApp(overrides: Partial<Config> = {}, options: Pick<BuildAppOptions, 'cardProcessor'> = {}): Promise<{ app: FastifyInstance; config: Config; baseUrl: string }> {
  const { db } = await testServer();
  const config = testConfig(overrides);
  const app = await buildApp({ config, db, logger: false, webDist: path.join(config.dataDir, 'no-web'), ...options });
  return { app, config, baseUrl: await listenOnLoopback(app) };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** A real HTTP call to the test server; answers status, parsed body and headers. */
export async function api<T = any>(method: string, urlPath: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const server = await testServer();
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = options.token;
  const response = await fetch(`${server.baseUrl}${urlPath}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return answerOf<T>(response);
}

/** A fetch response as status, body (parsed JSON; the text when it is not JSON) and headers. */
export async function answerOf<T = any>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

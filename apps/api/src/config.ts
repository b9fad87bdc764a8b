import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseTimeouts } from './db/database.ts';
import { SSL_MODES, type ConnectionDefaults } from './db/connection-settings.ts';

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  /** Where the login page's logo bar links (the spec: the marketing site). */
  MARKETING_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  /** A standby for list and dashboard reads (README "Reads on a standby"); PostgreSQL only. */
  DATABASE_READ_URL: z.string().min(1).optional(),
  /** libpq's: the role for a database URL that names none (what `pg_autoctl show uri` prints). */
  PGUSER: z.string().min(1).optional(),
  /** libpq's: the sslmode for a database URL that has none, with libpq's meanings. */
  PGSSLMODE: z.enum(SSL_MODES).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL only: see "When the database goes away" in the README. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  DATABASE_STARTUP_WAIT_SECONDS: z.coerce.number().int().min(0).default(60),
  /** off behind PgBouncer in transaction mode: no named prepared statements (README "Behind PgBouncer"). */
  DATABASE_NAMED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().default('Kestrel <no-reply@kestrel.localhost>'),
  SECRET_KEY: z.string().min(32).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SEED_DEMO: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Lets store callbacks reach loopback/private addresses; for local development only (default: on only in development). */
  ALLOW_PRIVATE_CALLBACKS: z.enum(['0', '1']).optional(),
  /** API processes on PostgreSQL (node:cluster); PGlite is always one process. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Per-address rate limits; only the test suite turns them off (it sends everything from one address). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Redis for the rate-limit counters; when unset they live in PostgreSQL. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL').optional(),
  /** Proxies whose X-Forwarded-For is believed: addresses or CIDRs, comma-separated; none by default. */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .refine((entries) => entries.every(isProxyAddress), 'a comma-separated list of IP addresses or CIDRs (e.g. 10.0.0.0/8,127.0.0.1)'),
});

function isProxyAddress(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  marketingUrl: string;
  databaseUrl: string | undefined;
  /** A standby for list and dashboard reads, with read-your-writes; only with databaseUrl. */
  databaseReadUrl: string | undefined;
  /** PGUSER and PGSSLMODE: what a database URL does not say. */
  databaseConnectionDefaults: ConnectionDefaults;
  databaseTimeouts: DatabaseTimeouts;
  /** How long start-up waits for an unreachable database before giving up. */
  databaseStartupWaitMs: number;
  /** Named prepared statements on the hot path; off behind a transaction-mode pooler. */
  databaseNamedStatements: boolean;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  secretKey: string;
  nodeEnv: 'development' | 'production' | 'test';
  seedDemo: boolean;
  logLevel: string;
  allowPrivateCallbacks: boolean;
  rateLimits: boolean;
  webConcurrency: number;
  redisUrl: string | undefined;
  /** Addresses/CIDRs of the reverse proxies trusted for X-Forwarded-For; empty: trust none. */
  trustProxy: string[];
}

/** Reads and validates the settings once; throws a readable error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid settings: ${problems}`);
  }
  const settings = parsed.data;
  if (settings.DATABASE_READ_URL && !settings.DATABASE_URL) {
    throw new Error('Invalid settings: DATABASE_READ_URL: a standby for reads needs DATABASE_URL (its primary); embedded PGlite has none');
  }
  // npm runs workspace scripts (migrate, operator:create, ledger:verify) inside apps/api; a relative
  // DATA_DIR means the directory the command was typed in, as it does for `npm start`.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), settings.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const publicUrl = (settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`).replace(/\/$/, '');
  return {
    port: settings.PORT,
    host: settings.HOST,
    publicUrl,
    // Without a marketing site of its own, the product's public address is its public page.
    marketingUrl: settings.MARKETING_URL ?? `${publicUrl}/`,
    databaseUrl: settings.DATABASE_URL,
    databaseReadUrl: settings.DATABASE_READ_URL,
    databaseConnectionDefaults: { user: settings.PGUSER, sslmode: settings.PGSSLMODE },
    databaseTimeouts: {
      connectMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    databaseStartupWaitMs: settings.DATABASE_STARTUP_WAIT_SECONDS * 1000,
    databaseNamedStatements: settings.DATABASE_NAMED_STATEMENTS === 'on',
    dataDir,
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
    secretKey: settings.SECRET_KEY ?? loadOrCreateSecret(dataDir),
    nodeEnv: settings.NODE_ENV,
    // Demo data only on the embedded database by default; never on a real server unless asked.
    seedDemo: settings.SEED_DEMO === undefined ? !settings.DATABASE_URL : settings.SEED_DEMO === '1',
    logLevel: settings.LOG_LEVEL,
    // On by default only in development, so the local demo store's callbacks reach this machine.
    allowPrivateCallbacks: settings.ALLOW_PRIVATE_CALLBACKS === undefined ? settings.NODE_ENV === 'development' : settings.ALLOW_PRIVATE_CALLBACKS === '1',
    rateLimits: settings.RATE_LIMITS === 'on',
    webConcurrency: settings.WEB_CONCURRENCY,
    redisUrl: settings.REDIS_URL,
    trustProxy: settings.TRUST_PROXY,
  };
}

/**
 * Warnings printed at start for settings that are allowed but unsafe: development mode
 * listening beyond this machine (development serves conveniences such as the mailbox; it
 * answers only loopback callers, but the rest of development mode is not meant for a network).
 */
export function startupWarnings(config: Pick<Config, 'nodeEnv' | 'host'>): string[] {
  const loopbackHost = ['localhost', '::1'].includes(config.host) || config.host.startsWith('127.');
  if (config.nodeEnv !== 'development' || loopbackHost) return [];
  return [
    `WARNING: development mode (NODE_ENV unset or 'development') is listening on ${config.host}, reachable from other machines. ` +
      `Set NODE_ENV=production for anything but local use, or HOST=127.0.0.1 to keep it on this machine.`,
  ];
}

function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

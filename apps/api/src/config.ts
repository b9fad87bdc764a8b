import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().default('Kestrel <no-reply@kestrel.localhost>'),
  SECRET_KEY: z.string().min(32).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SEED_DEMO: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Lets store callbacks reach loopback/private addresses; for local development only (default: on only in development). */
  ALLOW_PRIVATE_CALLBACKS: z.enum(['0', '1']).optional(),
  /** Per-address rate limits; only the test suite turns them off (it sends everything from one address). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  secretKey: string;
  nodeEnv: 'development' | 'production' | 'test';
  seedDemo: boolean;
  logLevel: string;
  allowPrivateCallbacks: boolean;
  rateLimits: boolean;
}

/** Reads and validates the settings once; throws a readable error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid settings: ${problems}`);
  }
  const settings = parsed.data;
  // npm runs workspace scripts (migrate, operator:create, ledger:verify) inside apps/api; a relative
  // DATA_DIR means the directory the command was typed in, as it does for `npm start`.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), settings.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: settings.PORT,
    host: settings.HOST,
    publicUrl: (settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`).replace(/\/$/, ''),
    databaseUrl: settings.DATABASE_URL,
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
  };
}

function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

import path from 'node:path';
import type { Logger } from 'pino';
import { isClusterWorker, runClusterPrimary } from './cluster.ts';
import { loadConfig, startupWarnings } from './config.ts';
import { createLogger } from './logger.ts';
import { startServer } from './start.ts';
import { DEMO_OPERATOR, DEMO_SECOND_OPERATOR } from './modules/demo/demo-store.ts';

let log: Logger | undefined;

/** One structured fatal line, then exit: an error nothing else handled must not go unlogged or keep a broken process serving. */
function exitFatally(message: string, error: unknown): never {
  if (log) log.fatal({ err: error }, message);
  else console.error(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

process.on('uncaughtException', (error) => exitFatally('uncaught exception', error));
process.on('unhandledRejection', (reason) => exitFatally('unhandled promise rejection', reason));

/** Starts Kestrel: settings, database, migrations, then the HTTP server; stops cleanly on a signal. */
async function main(): Promise<void> {
  const config = loadConfig();
  log = createLogger(config);
  const worker = isClusterWorker();
  if (!worker && config.webConcurrency > 1) {
    if (config.databaseUrl) return runClusterPrimary(config, log);
    log.warn({ webConcurrency: config.webConcurrency }, 'WEB_CONCURRENCY is ignored on the embedded database: PGlite is one process');
  }
  const server = await startServer(config, log, { databasePrepared: worker });
  const { app, demoLogins, demoStore } = server;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await server.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const where = server.database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL (DATABASE_URL)';
  // A plain summary for the person who typed `npm start`; the log lines carry the same facts.
  const banner = [
    '',
    `  Kestrel is running at ${config.publicUrl}`,
    `  Database: ${where}`,
    `  Mail: ${app.ctx.mailer.description}`,
    `  API reference: ${config.publicUrl}/v1/docs`,
    ...(demoLogins
      ? ['  Demo logins (created on this empty database):', ...demoLogins.map((login) => `    ${login.email} / ${login.password}  TPIN ${login.tpin}  account ${login.accountNumber} (@${login.userName})  ${login.balance}`)]
      : []),
    ...(demoStore
      ? [
          `  Demo store "${demoStore.storeName}" (bob, Approved; callbacks: ${config.publicUrl}/dev/store-callbacks):`,
          `    storeId ${demoStore.storeId}`,
          `    storeKey ${demoStore.storeKey}`,
          `  Demo operators (the second approves the first's large funding and payouts): ${DEMO_OPERATOR.email} / ${DEMO_OPERATOR.password}, ${DEMO_SECOND_OPERATOR.email} / ${DEMO_SECOND_OPERATOR.password}`,
        ]
      : ['  Store keys: on each store\'s page (Payment Gateway, then the store), for its owner.']),
    '',
  ];
  // Several workers would print it several times; the primary logs where Kestrel runs.
  if (worker) return;
  console.log(banner.join('\n'));
  for (const warning of startupWarnings(config)) {
    app.log.warn(warning);
    console.warn(`  ${warning}\n`);
  }
}

main().catch((error: unknown) => exitFatally('start-up failed', error));

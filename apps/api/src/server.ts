import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo } from './modules/demo/seed-demo.ts';
import { startCallbackWorker } from './modules/callbacks/worker.ts';
import { DEMO_OPERATOR, seedDemoStore } from './modules/stores/demo-store.ts';

/** Starts Kestrel: settings, database, migrations, then the HTTP server; stops cleanly on a signal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  const applied = await migrate(database.db);
  const app = await buildApp({ config, db: database.db });
  if (applied.length) app.log.info({ applied }, 'applied database migrations');
  const demoLogins = config.seedDemo ? await seedDemo(database.db) : null;
  if (demoLogins) app.log.info({ logins: demoLogins.map((login) => login.email) }, 'empty database: created the demo data set');
  const demoStore = demoLogins ? await seedDemoStore(app.ctx) : null;

  // Store callbacks are sent from the database outbox by this process (see modules/callbacks);
  // its first round runs a second from now, once the server below is listening.
  const callbackWorker = startCallbackWorker(app.ctx);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await callbackWorker.stop();
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL (DATABASE_URL)';
  // A plain summary for the person who typed `npm start`; the JSON log lines carry the same facts.
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
          `  Demo operator (approves stores): ${DEMO_OPERATOR.email} / ${DEMO_OPERATOR.password}`,
        ]
      : []),
    '',
  ];
  console.log(banner.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo } from './modules/demo/seed-demo.ts';

/** Starts Kestrel: settings, database, migrations, then the HTTP server; stops cleanly on a signal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  const applied = await migrate(database.db);
  const app = await buildApp({ config, db: database.db });
  if (applied.length) app.log.info({ applied }, 'applied database migrations');
  if (config.seedDemo) {
    const logins = await seedDemo(database.db);
    if (logins) {
      const lines = logins.map((login) => `  ${login.email} / ${login.password} (TPIN ${login.tpin}): account ${login.accountNumber}, @${login.userName}, ${login.balance}`);
      app.log.info(`Empty database: created the demo data set. Demo logins:\n${lines.join('\n')}`);
    }
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Kestrel is serving ${config.publicUrl} on ${database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL (DATABASE_URL)'}; mail goes to ${app.ctx.mailer.description}; API reference at ${config.publicUrl}/v1/docs`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

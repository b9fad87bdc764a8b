import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { waitForDatabase } from './db/availability.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { openDatabase, withoutStatementTimeouts, type DatabaseHandle } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { scheduleIdempotencyCleanup } from './http/idempotency.ts';
import { startCallbackWorker } from './modules/callbacks/worker.ts';
import { startRefundRecovery } from './modules/payments/collect/refund.ts';
import { startLedgerSealer } from './modules/ledger/seals.ts';
import { startNotificationDispatcher } from './modules/notifications/dispatcher.ts';
import { startReconciliationJob } from './modules/reconciliation/reconciliation-job.ts';
import { startStatementMailJob } from './modules/statements/statement-mail-job.ts';
import { seedDemo, withCurrentBalances, type DemoLogin } from './modules/demo/seed-demo.ts';
import { findDemoStore, seedDemoStore, type DemoStore } from './modules/demo/demo-store.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  demoLogins: DemoLogin[] | null;
  /** bob's demo store, made with the demo data set. */
  demoStore: DemoStore | null;
  /** Stops taking requests, then closes the database. */
  stop(): Promise<void>;
}

/**
 * On PostgreSQL: waits for the database (with back-off, up to DATABASE_STARTUP_WAIT_SECONDS),
 * then migrates over a connection of its own without the statement timeout (a migration may
 * rightly take longer than a request). Losing the database half-way goes back to waiting.
 */
async function migratePostgres(config: Config, log: Logger): Promise<string[]> {
  const deadline = Date.now() + config.databaseStartupWaitMs;
  const migrator = await openDatabase({
    databaseUrl: config.databaseUrl,
    connectionDefaults: config.databaseConnectionDefaults,
    poolSize: 1,
    applicationName: 'kestrel-migrate',
    timeouts: withoutStatementTimeouts(config.databaseTimeouts),
    namedStatements: config.databaseNamedStatements,
    log,
  });
  try {
    for (;;) {
      await waitForDatabase(migrator.db, { limitMs: Math.max(0, deadline - Date.now()), log });
      try {
        return await migrate(migrator.db);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || Date.now() >= deadline) throw error;
        log.warn({ error: (error as Error).message }, 'database lost during migrations; waiting for it again');
      }
    }
  } finally {
    await migrator.close();
  }
}

/**
 * The once-per-deployment work before several API processes start on PostgreSQL: wait for
 * the database, migrate, and create the demo data when asked.
 */
export async function prepareDatabase(config: Config, log: Logger): Promise<DemoLogin[] | null> {
  const applied = await migratePostgres(config, log);
  if (applied.length) log.info({ applied }, 'applied database migrations');
  if (!config.seedDemo) return null;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, connectionDefaults: config.databaseConnectionDefaults, poolSize: 1, timeouts: config.databaseTimeouts, namedStatements: config.databaseNamedStatements, log });
  try {
    const demoLogins = await seedDemo(database.db, config.secretKey);
    if (demoLogins) log.info({ logins: demoLogins.map((login) => login.email) }, 'empty database: created the demo data set');
    return demoLogins;
  } finally {
    await database.close();
  }
}

/**
 * Settings, database, migrations, then the HTTP server listening on config.port.
 * `databasePrepared`: a cluster primary already ran prepareDatabase (a worker only serves).
 */
export async function startServer(config: Config, log: Logger, options: { webDist?: string; databasePrepared?: boolean } = {}): Promise<RunningServer> {
  const prepared = options.databasePrepared === true && Boolean(config.databaseUrl);
  const applied = config.databaseUrl && !prepared ? await migratePostgres(config, log) : null;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    connectionDefaults: config.databaseConnectionDefaults,
    pgliteDir: path.join(config.dataDir, 'db'),
    timeouts: config.databaseTimeouts,
    namedStatements: config.databaseNamedStatements,
    log,
  });
  // The standby for list and dashboard reads (README "Reads on a standby"). Opening it never
  // waits for it: a standby that is down only sends those reads to the primary.
  let readDatabase: DatabaseHandle | undefined;
  try {
    if (config.databaseReadUrl) {
      readDatabase = await openDatabase({
        databaseUrl: config.databaseReadUrl,
        connectionDefaults: config.databaseConnectionDefaults,
        applicationName: 'kestrel-reads',
        // A standby that does not answer is given up on fast: its reads go to the primary.
        timeouts: { ...config.databaseTimeouts, connectMs: Math.min(config.databaseTimeouts.connectMs, 1_000) },
        namedStatements: config.databaseNamedStatements,
        log,
      });
    }
    const migrations = applied ?? (prepared ? [] : await migrate(database.db));
    const app = await buildApp({
      config,
      db: database.db,
      ...(readDatabase ? { readDb: readDatabase.db } : {}),
      loggerInstance: log,
      ...(options.webDist ? { webDist: options.webDist } : {}),
    });
    if (migrations.length) app.log.info({ applied: migrations }, 'applied database migrations');
    const seededLogins = config.seedDemo && !prepared ? await seedDemo(database.db, config.secretKey) : null;
    if (seededLogins) app.log.info({ logins: seededLogins.map((login) => login.email) }, 'empty database: created the demo data set');
    // bob's demo store and its payments go through the real gateway code, so they need the app.
    // On a database seeded before, the store's keys are looked up, so every start prints them.
    const demoStore = seededLogins ? await seedDemoStore(app.ctx) : config.seedDemo && !prepared ? await findDemoStore(app.ctx) : null;
    const demoLogins = seededLogins && (await withCurrentBalances(database.db, seededLogins));
    const stopCleanup = scheduleIdempotencyCleanup(database.db, log);
    app.addHook('onClose', async () => stopCleanup());
    // Store callbacks are sent from the database outbox by every API process (see modules/callbacks).
    const callbackWorker = startCallbackWorker(app.ctx);
    app.addHook('onClose', async () => callbackWorker.stop());
    // Card refunds left between the ledger step and the processor's answer (a crash) are
    // finished or undone now and every 30 s (see modules/payments/collect/refund.ts).
    const refundRecovery = startRefundRecovery(app.ctx);
    app.addHook('onClose', async () => refundRecovery.stop());
    // Mails and SMS of notification events are written after commit, woken by each request that
    // wrote one and every 2 s for the rest (see modules/notifications/dispatcher.ts).
    const dispatcher = startNotificationDispatcher(app.ctx);
    app.addHook('onClose', async () => dispatcher.stop());
    // Each ended UTC day's card processor records are reconciled with the ledger (modules/reconciliation).
    const reconciliation = startReconciliationJob({ db: database.db, processor: app.ctx.cardProcessor, log: app.log });
    app.addHook('onClose', async () => reconciliation.stop());
    // On the 1st (UTC), "your statement is ready" to each e-mail account, once per account and month (modules/statements).
    const statementMails = startStatementMailJob(app.ctx, app.log);
    app.addHook('onClose', async () => statementMails.stop());
    // Ledger seals are made after commit, off the money path (see modules/ledger/seals.ts).
    const sealer = startLedgerSealer(database.db, config.secretKey, app.log);
    app.addHook('onClose', async () => sealer.stop());
    await app.listen({ port: config.port, host: config.host });
    return {
      app,
      database,
      demoLogins,
      demoStore,
      async stop() {
        try {
          await app.close();
        } finally {
          await readDatabase?.close();
          await database.close();
        }
      },
    };
  } catch (error) {
    await readDatabase?.close();
    await database.close();
    throw error;
  }
}

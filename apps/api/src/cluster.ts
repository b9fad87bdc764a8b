import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { prepareDatabase } from './start.ts';

/** More deaths than this within the window and the primary waits before starting the next worker (a crash loop). */
const CRASH_LOOP_DEATHS = 5;
const CRASH_LOOP_WINDOW_MS = 10_000;
const CRASH_LOOP_PAUSE_MS = 2_000;

/**
 * The primary of WEB_CONCURRENCY API processes on PostgreSQL: prepares the database once
 * (wait, migrate, demo data), then starts the workers, which share the port; a worker that
 * dies is logged and replaced. SIGTERM/SIGINT stop the workers, then the primary.
 */
export async function runClusterPrimary(config: Config, log: Logger): Promise<void> {
  await prepareDatabase(config, log);
  let stopping = false;
  const deaths: number[] = [];

  const start = (): Worker => cluster.fork({ KESTREL_CLUSTER_WORKER: '1' });
  cluster.on('listening', (worker) => log.info({ workerPid: worker.process.pid }, 'API worker listening'));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - CRASH_LOOP_WINDOW_MS) deaths.shift();
    const pause = deaths.length > CRASH_LOOP_DEATHS ? CRASH_LOOP_PAUSE_MS : 0;
    log.error({ workerPid: worker.process.pid, code, signal, restartInMs: pause }, 'API worker died; starting another');
    setTimeout(start, pause);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down the API workers');
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    if (!workers.length) process.exit(0);
    let left = workers.length;
    cluster.on('exit', () => {
      left -= 1;
      if (left === 0) process.exit(0);
    });
    for (const worker of workers) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < config.webConcurrency; i++) start();
  log.info({ workers: config.webConcurrency, url: config.publicUrl }, `Kestrel is starting ${config.webConcurrency} API processes at ${config.publicUrl}`);
}

/** True in a process started by runClusterPrimary. */
export const isClusterWorker = (): boolean => cluster.isWorker && process.env.KESTREL_CLUSTER_WORKER === '1';

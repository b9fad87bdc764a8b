import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { childrenOf, freePort } from '../test/processes.ts';

/**
 * The API started as it is in production (`src/server.ts` in processes of its own), so that
 * WEB_CONCURRENCY's node:cluster primary and its workers really run: the bench's in-process
 * server cannot show what a second process does. PostgreSQL only (PGlite is one process).
 */
const serverPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/server.ts');
const CLOCK_TICKS_PER_SECOND = 100;

export interface SeparateServerOptions {
  databaseUrl: string;
  secretKey: string;
  dataDir: string;
  webConcurrency: number;
}

export interface SeparateServer {
  baseUrl: string;
  /** The primary and its workers (one process when WEB_CONCURRENCY is 1). */
  pids(): number[];
  stop(): Promise<void>;
}

/** User + system CPU time of one process, milliseconds; 0 once it has gone. */
export function cpuMsOf(pid: number): number {
  try {
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Resident set size of one process, MiB; 0 once it has gone. */
export function rssMiBOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts the server (the cluster primary when webConcurrency > 1) and waits until it answers
 * /readyz, every worker has started and all have gone quiet (start-up done, so no worker is
 * still compiling while the clock runs). Logging is at `warn`: request logs would be measured too.
 */
export async function startSeparateServer(options: SeparateServerOptions): Promise<SeparateServer> {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + 1 : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', serverPath], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      WEB_CONCURRENCY: String(options.webConcurrency),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      SECRET_KEY: options.secretKey,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const primary = child.pid;
  if (primary === undefined) throw new Error('the server did not start');
  const pids = () => [primary, ...childrenOf(primary)];
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const deadline = Date.now() + 120_000;
    const workers = options.webConcurrency > 1 ? options.webConcurrency : 0;
    while (!(childrenOf(primary).length >= workers && (await ready(`${baseUrl}/readyz`)))) {
      if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('the server did not become ready within 2 minutes');
      await sleep(200);
    }
    // Quiet: the processes together used under 10% of a core over half a second.
    for (let before = pids().reduce((sum, pid) => sum + cpuMsOf(pid), 0); ; ) {
      await sleep(500);
      const now = pids().reduce((sum, pid) => sum + cpuMsOf(pid), 0);
      if (now - before < 50 || Date.now() > deadline) break;
      before = now;
    }
    return { baseUrl, pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

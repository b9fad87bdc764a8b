import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from './processes.ts';

const databaseUrl = inject('testDatabaseUrl');
const serverPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/server.ts');

async function statusOf(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).status;
  } catch {
    return 0;
  }
}

async function until<T>(what: string, check: () => T | undefined, limitMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

if (!databaseUrl) {
  describe('several API processes (WEB_CONCURRENCY)', () => {
    it.skip('skipped on PGlite: it is one process; WEB_CONCURRENCY applies on PostgreSQL (run npm test with DATABASE_URL)', () => {});
  });
} else {
  describe('several API processes (WEB_CONCURRENCY)', () => {
    it('serve one port, and the primary replaces a worker that dies', async () => {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', serverPath], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          WEB_CONCURRENCY: '2',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'kestrel-cluster-')),
          SECRET_KEY: 'x'.repeat(64),
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          SEED_DEMO: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const entries: { msg: string; workerPid?: number; pid: number }[] = [];
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('{')) entries.push(JSON.parse(line) as (typeof entries)[number]);
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const listening = () => entries.filter((entry) => entry.msg === 'API worker listening').map((entry) => entry.workerPid!);
      try {
        // Two workers each compile the app through tsx: 49 s was seen under a load average of 19.
        const first = await until('two workers', () => (listening().length >= 2 ? listening() : undefined), 150_000);
        expect(new Set(first).size).toBe(2);
        expect(first).not.toContain(child.pid);
        expect(await statusOf(`http://127.0.0.1:${port}/readyz`)).toBe(200);

        process.kill(first[0]!, 'SIGKILL');
        await until('the death to be logged', () => entries.find((entry) => entry.msg === 'API worker died; starting another' && entry.workerPid === first[0]), 10_000);
        // The other worker keeps serving while the replacement starts.
        expect(await statusOf(`http://127.0.0.1:${port}/readyz`)).toBe(200);
        const replacement = await until('a replacement worker', () => listening().find((pid) => !first.includes(pid)), 90_000);
        expect(replacement).toBeGreaterThan(0);
        expect(child.exitCode).toBeNull();
        for (let i = 0; i < 4; i++) expect(await statusOf(`http://127.0.0.1:${port}/readyz`)).toBe(200);
      } finally {
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
    }, 300_000);
  });
}

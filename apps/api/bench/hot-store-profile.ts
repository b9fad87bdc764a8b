/**
 * `npm run bench:hot-store -w apps/api`: the bench's hot-store phase alone, with a CPU profile
 * of the server's main thread. Card payments (create + pay, two requests) into one Approved
 * store from a separate autocannon process, on a fresh PostgreSQL database, then the profile's
 * top frames by self time and the main thread's milliseconds per payment. For finding what a
 * payment does on the main thread (issue 21), without running the whole bench.
 *
 * Settings (environment): DATABASE_URL (default the local PostgreSQL), BENCH_SECONDS (the
 * measured phase, default 5), BENCH_CLIENTS (default 32), BENCH_PROFILE (the .cpuprofile
 * file, default hot-store.cpuprofile in the working directory), BENCH_PORT (default 0: any).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { encryptStoreKey, newStoreId, newStoreKey } from '../src/modules/stores/store-key.ts';
import { createFixture } from './fixture.ts';
import { LoadGenerator } from './load.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const PROFILE_FILE = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_PROFILE ?? 'hot-store.cpuprofile');
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name and file), summed over the profile, highest first. */
function topFrames(profile: Profile, count: number): { frame: string; ms: number; share: number }[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const node = byNode.get(nodeId);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/apps\/api\//, 'apps/api/');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
    totalUs += delta;
  });
  return [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, us]) => ({ frame, ms: us / 1000, share: us / totalUs }));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kestrel-hot-store-'));
  const scratch = await createScratchDatabase(ADMIN_URL, 'kestrel_hot_store');
  const generator = new LoadGenerator();
  const database = await openDatabase({ databaseUrl: scratch.url });
  try {
    await migrate(database.db);
    const secretKey = randomBytes(32).toString('hex');
    const fixture = await createFixture(database.db, { accounts: 200, users: 8, openingCents: 1_000_000, tpin: 4321, historyTransactions: 10, secretKey });
    const config = { ...loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SECRET_KEY: secretKey, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }), databaseUrl: scratch.url };
    const app = await buildApp({ config, db: database.db, logger: false, webDist: path.join(dataDir, 'no-web') });
    await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no address');
    const baseUrl = `http://127.0.0.1:${address.port}`;

    const storeId = newStoreId();
    const storeKey = newStoreKey();
    const owner = await database.db.selectFrom('accountUsers').select('userId').where('accountId', '=', fixture.hot.id).executeTakeFirstOrThrow();
    await database.db
      .insertInto('stores')
      .values({
        storeId,
        accountId: fixture.hot.id,
        createdBy: owner.userId,
        storeName: 'Bench hot store',
        storeUrl: 'https://hot-store.example',
        callbackUrl: 'https://hot-store.example/callback',
        logoStoredName: 'none.png',
        logoMimeType: 'image/png',
        storeKeyEncrypted: encryptStoreKey(config.secretKey, storeKey),
        status: 'Approved',
      })
      .execute();
    // Warm-up (connections, JIT), not measured.
    await generator.run({ kind: 'card', baseUrl, concurrency: 8, storeId, storeKey, durationMs: 3000 });

    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const loop = performance.eventLoopUtilization();
    const result = await generator.run({ kind: 'card', baseUrl, concurrency: CLIENTS, storeId, storeKey, durationMs: SECONDS * 1000 });
    const busy = performance.eventLoopUtilization(loop);
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    writeFileSync(PROFILE_FILE, JSON.stringify(profile));

    const seconds = result.elapsedMs / 1000;
    const busyMs = busy.active;
    process.stdout.write(`hot-store card payments (create + pay), ${CLIENTS} clients, ${seconds.toFixed(1)} s: ${result.count} paid, ${(result.count / seconds).toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms, failures ${JSON.stringify(result.failures)}\n`);
    process.stdout.write(`main thread busy ${(busy.utilization * 100).toFixed(0)} %: ${(busyMs / Math.max(1, result.count)).toFixed(2)} ms per payment\n`);
    process.stdout.write(`profile: ${PROFILE_FILE}\ntop frames by self time:\n`);
    for (const { frame, ms, share } of topFrames(profile, 25)) process.stdout.write(`  ${(share * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${frame}\n`);
    await app.close();
  } finally {
    await generator.close();
    await database.close();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

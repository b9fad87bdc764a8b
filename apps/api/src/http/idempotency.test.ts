import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/harness.ts';
import { unique } from '../../test/factories.ts';
import { deleteExpiredIdempotencyKeys, idempotencyKeyRetentionMs, scheduleIdempotencyCleanup } from './idempotency.ts';

const hour = 60 * 60 * 1000;

async function insertKey(caller: string, key: string, ageMs: number) {
  const { db } = await testDatabase();
  await db
    .insertInto('idempotencyKeys')
    .values({ caller, idempotencyKey: key, requestHash: 'h', responseStatus: 200, responseBody: '{}', createdAt: new Date(Date.now() - ageMs) })
    .execute();
}

async function keysOf(caller: string) {
  const { db } = await testDatabase();
  const rows = await db.selectFrom('idempotencyKeys').select('idempotencyKey').where('caller', '=', caller).orderBy('idempotencyKey').execute();
  return rows.map((row) => row.idempotencyKey);
}

describe('idempotency key expiry', () => {
  it('keeps keys for 24 hours and removes older ones', async () => {
    expect(idempotencyKeyRetentionMs).toBe(24 * hour);
    const caller = unique('caller');
    await insertKey(caller, 'fresh', 0);
    await insertKey(caller, 'day-minus-a-minute', 24 * hour - 60_000);
    await insertKey(caller, 'day-plus-a-minute', 24 * hour + 60_000);
    await insertKey(caller, 'week-old', 7 * 24 * hour);
    const deleted = await deleteExpiredIdempotencyKeys((await testDatabase()).db);
    // Other test files share the database: at least this caller's two old keys went.
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(await keysOf(caller)).toEqual(['day-minus-a-minute', 'fresh']);
  });

  it('runs periodically in the server process', async () => {
    const caller = unique('caller');
    await insertKey(caller, 'old', 25 * hour);
    const lines: string[] = [];
    const log = { info: (_o: object, message: string) => lines.push(message), warn: (_o: object, message: string) => lines.push(message) };
    const stop = scheduleIdempotencyCleanup((await testDatabase()).db, log, 50);
    try {
      await expect.poll(() => keysOf(caller), { timeout: 5_000, interval: 50 }).toEqual([]);
    } finally {
      stop();
    }
    expect(lines).toContain('removed expired idempotency keys');
  });
});

import { describe, expect, it } from 'vitest';
import { unique } from '../../../test/factories.ts';
import { testDatabase } from '../../../test/harness.ts';
import { createSandboxProcessor } from '../payments/card-processor.ts';
import { dayAfter, reconcileDay, today } from './reconcile.ts';
import { dueDays, startReconciliationJob } from './reconciliation-job.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

describe('the daily reconciliation job', () => {
  it('does yesterday on a first start, nothing once a day was reconciled after it ended, and catches up the days a stopped server missed', async () => {
    const { db } = await testDatabase();
    const processor = createSandboxProcessor(db, { name: unique('sandbox-job-') });
    // 00:10 UTC is still within the quarter of an hour the job leaves the day before.
    expect(await dueDays(db, processor.name, new Date('2026-03-10T00:10:00Z'))).toEqual(['2026-03-08']);
    expect(await dueDays(db, processor.name, new Date('2026-03-10T08:00:00Z'))).toEqual(['2026-03-09']);
    // Reconciled now, long after the day ended: done.
    await reconcileDay({ db, processor }, '2026-03-09', { trigger: 'job', userId: null });
    expect(await dueDays(db, processor.name, new Date('2026-03-10T08:00:00Z'))).toEqual([]);
    // The server was down for three days.
    expect(await dueDays(db, processor.name, new Date('2026-03-13T08:00:00Z'))).toEqual(['2026-03-10', '2026-03-11', '2026-03-12']);
  });

  it('redoes a day an operator reconciled before it ended', async () => {
    const { db } = await testDatabase();
    const processor = createSandboxProcessor(db, { name: unique('sandbox-job-') });
    await reconcileDay({ db, processor }, '2026-04-09', { trigger: 'operator', userId: null });
    await db.updateTable('reconciliationRuns').set({ ranAt: new Date('2026-04-09T12:00:00Z') }).where('processor', '=', processor.name).execute();
    expect(await dueDays(db, processor.name, new Date('2026-04-10T08:00:00Z'))).toEqual(['2026-04-09']);
  });

  it("runs at the server's start: yesterday is reconciled by the job", async () => {
    const { db } = await testDatabase();
    const processor = createSandboxProcessor(db, { name: unique('sandbox-job-') });
    const yesterday = dayAfter(today(), -1);
    const started = Date.now();
    const job = startReconciliationJob({ db, processor, log: quiet }, 60_000);
    try {
      let ranAt: Date | undefined;
      for (let i = 0; i < 400 && !ranAt; i += 1) {
        ranAt = (await db.selectFrom('reconciliationRuns').select('ranAt').where('processor', '=', processor.name).where('day', '=', yesterday).executeTakeFirst())?.ranAt;
        if (!ranAt) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(ranAt?.getTime()).toBeGreaterThanOrEqual(started - 1000);
    } finally {
      await job.stop();
    }
    const run = await db.selectFrom('reconciliationRuns').select(['trigger', 'mismatches']).where('processor', '=', processor.name).where('day', '=', yesterday).executeTakeFirstOrThrow();
    expect(run).toEqual({ trigger: 'job', mismatches: 0 });
  });
});

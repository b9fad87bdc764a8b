import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asCents } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { acquireDirectoryLock } from '../../db/directory-lock.ts';
import { migrate } from '../../db/migrate.ts';
import { createSandboxProcessor } from '../payments/card-processor.ts';
import { dayAfter, today } from './reconcile.ts';

/*
 * `npm run reconcile` as a person runs it: its own process on an embedded database (a data
 * directory of its own, so the day holds exactly what this test put there).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');

function reconcile(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  return spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(here, 'reconcile-cli.ts'), ...args], { env, encoding: 'utf8', timeout: 120_000 });
}

describe('npm run reconcile', () => {
  it('prints each difference and exits 1 when the processor charged a card the books do not have; 0 on a day that agrees', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-reconcile-'));
    try {
      // The processor charged a card for a payment, and nothing reached the books.
      const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
      const paymentId = randomUUID();
      try {
        await migrate(handle.db);
        const charged = await createSandboxProcessor(handle.db).charge({
          number: '4242424242424242',
          brand: 'visa',
          expMonth: 12,
          expYear: 2034,
          cvc: '123',
          amountCents: asCents(1250),
          currency: 'USD',
          merchantReference: `payment:${paymentId}`,
        });
        expect(charged.approved).toBe(true);
      } finally {
        await handle.close();
      }

      const differs = reconcile(dataDir, ['--date', today()]);
      expect(differs.status, differs.stderr).toBe(1);
      expect(differs.stdout).toContain(`Reconciliation of the card processor "sandbox" for ${today()} (UTC): 1 processor records (charges and refunds), 0 card payments and card refunds in the ledger.`);
      expect(differs.stderr).toContain('1 difference open:');
      expect(differs.stderr).toMatch(new RegExp(`Charged but not recorded +sbx_[0-9a-f]+: processor US\\$ 12\\.50 \\(approved\\), ledger none, payment ${paymentId}, visa ending 4242`));
      expect(differs.stderr).toContain(`on the operator console: http://localhost:3999/ops/reconciliation?day=${today()}`);

      const quiet = reconcile(dataDir, ['--date', dayAfter(today(), -1)]);
      expect(quiet.status, quiet.stderr).toBe(0);
      expect(quiet.stdout).toContain("OK: the processor's records and the ledger agree.");

      const wrong = reconcile(dataDir, ['--date', '2026-13-01']);
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain('Enter a day as YYYY-MM-DD: 2026-13-01');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Three processes, two of them starting an embedded database: minutes on a busy machine.
  }, 300_000);

  it('explains, without a stack trace, that a running server holds the embedded database, and where to reconcile meanwhile', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-reconcile-'));
    // This test process stands for the running server: it holds the data directory's lock.
    const lock = acquireDirectoryLock(path.join(dataDir, 'kestrel.lock'));
    try {
      const run = reconcile(dataDir, ['--date', '2026-05-01']);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('the running Kestrel server holds it');
      expect(run.stderr).toContain('http://localhost:3999/ops/reconciliation');
      expect(run.stderr).toContain('POST http://localhost:3999/v1/operator/reconciliation/runs {"day":"2026-05-01"}');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      lock.release();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acquireDirectoryLock } from '../../db/directory-lock.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');

describe('npm run ledger:verify', () => {
  it('explains, without a stack trace, that a running server holds the embedded database, and where to verify meanwhile', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-verify-'));
    // This test process stands for the running server: it holds the data directory's lock.
    const lock = acquireDirectoryLock(path.join(dataDir, 'kestrel.lock'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent' };
      delete env.DATABASE_URL;
      const run = spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(here, 'verify-cli.ts')], { env, encoding: 'utf8', timeout: 60_000 });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('the running Kestrel server holds it');
      expect(run.stderr).toContain('http://localhost:3999/ops/ledger');
      expect(run.stderr).toContain('GET http://localhost:3999/v1/operator/ledger-health');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      lock.release();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

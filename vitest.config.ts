import { defineConfig } from 'vitest/config';

/**
 * Unit and API integration tests. Each worker process opens one database (embedded
 * PGlite in memory, or the PostgreSQL database made by the global setup when
 * DATABASE_URL is set) and every test makes its own data, so files share it safely.
 */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    globalSetup: ['apps/api/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});

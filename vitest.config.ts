import { defineConfig } from 'vitest/config';

/**
 * Two projects, one `npm test`:
 * - `node`: unit and API integration tests. Each worker process opens one database (embedded
 *   PGlite in memory, or the PostgreSQL database made by the global setup when DATABASE_URL is
 *   set) and every test makes its own data, so files share it safely.
 * - `web`: component tests beside the web features (`*.test.tsx`), rendered with Testing
 *   Library in happy-dom, a DOM for Node; they need no database and no server (the network is
 *   stubbed at `fetch`).
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
          globalSetup: ['apps/api/test/global-setup.ts'],
          // Fails a test file whose traffic got a status the API reference does not list.
          setupFiles: ['apps/api/test/setup-openapi-statuses.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
    ],
  },
});

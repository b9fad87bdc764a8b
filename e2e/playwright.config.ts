import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_OPERATOR } from './operator.ts';

/**
 * Browser journeys against `npm start` on a temporary data directory (embedded database,
 * demo data seeded), driving Debian's Chromium; Playwright never downloads a browser here.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'kestrel-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

export default defineConfig({
  testDir: './journeys',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium }, grep: /@phone/ },
  ],
  webServer: {
    // An operator (for the journeys that move withdrawals) is made first, by the same CLI people use.
    command: `npm --prefix .. run --silent operator:create -- --email ${E2E_OPERATOR.email} --password ${E2E_OPERATOR.password} && node ../scripts/start.mjs`,
    url: `${baseURL}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      NODE_ENV: 'development',
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      // Every journey comes from this one address, which the per-address limits exist to stop;
      // the API suite proves the limits (apps/api/test/security.test.ts).
      RATE_LIMITS: 'off',
    },
  },
});

// `npm run lighthouse`: Lighthouse (mobile preset) on /login and, signed in as the demo user,
// on /dashboard, driving Debian's Chromium. Needs a running server with the demo data set
// (`npm start` on a fresh data directory). Prints the scores; never passes or fails anything.
// LIGHTHOUSE_REPORTS=<dir> keeps the full JSON reports there (LCP element, request chains).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const baseUrl = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const profile = mkdtempSync(path.join(tmpdir(), 'kestrel-lighthouse-'));

/** Runs the Lighthouse CLI in a Chromium on the profile below, keeping its cookies (the signed-in session). */
function lighthouse(route) {
  const output = path.join(profile, `${route.replace(/\W/g, '_')}.json`);
  execFileSync(
    'npx',
    ['-y', 'lighthouse@13', `${baseUrl}${route}`, `--chrome-path=${chromePath}`, `--chrome-flags=--headless=new --no-sandbox --disable-gpu --user-data-dir=${profile}`, '--disable-storage-reset', '--only-categories=performance,accessibility', '--output=json', `--output-path=${output}`, '--quiet'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(readFileSync(output, 'utf8'));
  if (process.env.LIGHTHOUSE_REPORTS) copyFileSync(output, path.join(process.env.LIGHTHOUSE_REPORTS, path.basename(output)));
  const audit = (id) => report.audits[id]?.displayValue ?? '–';
  return {
    route,
    performance: Math.round(report.categories.performance.score * 100),
    accessibility: Math.round(report.categories.accessibility.score * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    transferred: audit('total-byte-weight'),
  };
}

try {
  const rows = [lighthouse('/login')];
  // Sign in once in the same profile; the session cookies (7-day expiry) stay on disk for Lighthouse.
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(process.env.LIGHTHOUSE_EMAIL ?? 'alice@example.com');
  await page.getByLabel('Password', { exact: true }).fill(process.env.LIGHTHOUSE_PASSWORD ?? 'kestrel-demo');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/dashboard$/);
  await context.close();
  // Keep the cookies but not the HTTP cache: the figures are for a first visit's downloads.
  for (const cache of ['Cache', 'Code Cache']) rmSync(path.join(profile, 'Default', cache), { recursive: true, force: true });
  rows.push(lighthouse('/dashboard'));

  console.log('| route | performance | accessibility | FCP | LCP | TBT | transferred |');
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    console.log(`| ${row.route} | ${row.performance} | ${row.accessibility} | ${row.fcp} | ${row.lcp} | ${row.tbt} | ${row.transferred} |`);
  }
} finally {
  rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
}

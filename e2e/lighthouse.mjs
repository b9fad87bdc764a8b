// `npm run lighthouse`: Lighthouse (mobile preset) on the first pages people see — /login,
// /signup, a hosted checkout of the demo store (/web-pay/{urlId}) and a payment link's pay page
// (/payment-request/{id}) — and, signed in as the demo user, on /dashboard, driving Debian's
// Chromium. Needs a running server with the demo data set (`npm start` on a fresh data
// directory): the checkout is created through the gateway API with the demo store's keys (read
// by its owner, demo bob), the link through the API by demo alice. Prints the scores; never
// passes or fails anything.
// LIGHTHOUSE_RUNS=<n> (default 1) measures every page n times and prints each run and the
// median (the machine's load moves single runs by several points).
// LIGHTHOUSE_PAGES=login,signup,checkout,link,dashboard picks the pages (default all).
// LIGHTHOUSE_REPORTS=<dir> keeps the full JSON reports there (LCP element, request chains).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const baseUrl = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1) || 1);
const password = process.env.LIGHTHOUSE_PASSWORD ?? 'kestrel-demo';
const wanted = new Set((process.env.LIGHTHOUSE_PAGES ?? 'login,signup,checkout,link,dashboard').split(',').map((name) => name.trim()));
const profile = mkdtempSync(path.join(tmpdir(), 'kestrel-lighthouse-'));

/** One JSON call to the running server; throws with the answer when it is not the expected status. */
async function api(method, route, { token, headers = {}, body, expect = 200 } = {}) {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status !== expect) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

const signIn = async (email) => (await api('POST', '/v1/auth/login', { body: { email, password } })).data.token;
const unique = (prefix) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A hosted checkout of demo bob's store "Bob's Bikes Shop", as a shop's server creates it. */
async function newCheckoutPath() {
  const token = await signIn(process.env.LIGHTHOUSE_STORE_OWNER ?? 'bob@example.com');
  const { stores } = (await api('GET', '/v1/payment_gateway_store/account/bob', { token })).data;
  const store = stores.find((candidate) => candidate.storeName === "Bob's Bikes Shop" && candidate.status === 'Approved');
  if (!store) throw new Error("demo bob has no Approved store named Bob's Bikes Shop (start the server on a fresh data directory)");
  const created = await api('POST', '/v1/payment/web-pay', {
    headers: { storeId: store.storeId, storeKey: store.storeKey },
    body: {
      orderId: unique('lighthouse'),
      currency: 'USD',
      amount: 24.5,
      customerName: 'Dana Doe',
      customerEmail: 'dana@example.com',
      customerPhone: '+15550100009',
      customerAddress: '1 Main Street',
      productName: 'Water bottle',
      cancelUrl: 'https://bobs-bikes.example/cart',
    },
  });
  return new URL(created.redirectUrl).pathname;
}

/** A payment link of demo alice's (fixed amount, card or wallet), as her form creates it. */
async function newLinkPath() {
  const token = await signIn(process.env.LIGHTHOUSE_LINK_OWNER ?? 'alice@example.com');
  const { accountNumber } = (await api('GET', '/v1/account/alice', { token })).data;
  const created = await api('POST', '/v1/payment-request/create', {
    token,
    expect: 201,
    body: {
      paymentPurpose: 'Guitar lesson',
      reference: unique('LH'),
      tpin: process.env.LIGHTHOUSE_TPIN ?? '4826',
      accountNumber,
      amount: { type: 'fixed', currency: 'USD', value: 40 },
      isUseLimit: false,
      paymentMethods: ['Card', 'Kestrel'],
    },
  });
  return new URL(created.data.pRequestURL).pathname;
}

/** Runs the Lighthouse CLI in a Chromium on the profile below, keeping its cookies (the signed-in session). */
function lighthouse(name, route, run) {
  // Keep the cookies but not the HTTP cache: the figures are for a first visit's downloads.
  for (const cache of ['Cache', 'Code Cache']) rmSync(path.join(profile, 'Default', cache), { recursive: true, force: true });
  const output = path.join(profile, `${name}-${run}.json`);
  execFileSync(
    'npx',
    ['-y', 'lighthouse@13', `${baseUrl}${route}`, `--chrome-path=${chromePath}`, `--chrome-flags=--headless=new --no-sandbox --disable-gpu --user-data-dir=${profile}`, '--disable-storage-reset', '--only-categories=performance,accessibility', '--output=json', `--output-path=${output}`, '--quiet'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(readFileSync(output, 'utf8'));
  if (process.env.LIGHTHOUSE_REPORTS) copyFileSync(output, path.join(process.env.LIGHTHOUSE_REPORTS, path.basename(output)));
  const audit = (id) => report.audits[id]?.displayValue ?? '–';
  return {
    performance: Math.round(report.categories.performance.score * 100),
    accessibility: Math.round(report.categories.accessibility.score * 100),
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    transferred: audit('total-byte-weight'),
    load: loadavg()[0].toFixed(1),
  };
}

/** Signs demo alice in once in the Lighthouse profile; the session cookies (7-day expiry) stay on disk. */
async function signInInProfile() {
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(process.env.LIGHTHOUSE_EMAIL ?? 'alice@example.com');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/dashboard$/);
  await context.close();
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  // The signed-out pages first (the dashboard's sign-in leaves cookies that send /login to /dashboard).
  const pages = [
    { name: 'login', route: async () => '/login' },
    { name: 'signup', route: async () => '/signup' },
    // A fresh checkout and link each run: an opened checkout is the same page, but a paid one is not.
    { name: 'checkout', label: '/web-pay/{urlId}', route: newCheckoutPath },
    { name: 'link', label: '/payment-request/{id}', route: newLinkPath },
    { name: 'dashboard', route: async () => '/dashboard', signedIn: true },
  ].filter((page) => wanted.has(page.name));

  const results = [];
  for (const page of pages) {
    if (page.signedIn) await signInInProfile();
    const measured = [];
    for (let run = 1; run <= runs; run += 1) {
      try {
        measured.push(lighthouse(page.name, await page.route(), run));
      } catch (error) {
        // One failed run (Chromium under a heavy load) is said, not fatal to the others.
        console.error(`${page.name}, run ${run}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
      }
    }
    results.push({ label: page.label ?? (await page.route()), measured });
  }

  console.log('| route | run | performance | accessibility | FCP | LCP | TBT | transferred | load average |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const { label, measured } of results) {
    measured.forEach((row, index) => {
      console.log(`| ${label} | ${index + 1} | ${row.performance} | ${row.accessibility} | ${row.fcp} | ${row.lcp} | ${row.tbt} | ${row.transferred} | ${row.load} |`);
    });
  }
  if (runs > 1) {
    console.log('\n| route | median performance | range | median LCP | accessibility |');
    console.log('|---|--:|--:|--:|--:|');
    for (const { label, measured } of results.filter((result) => result.measured.length)) {
      const scores = measured.map((row) => row.performance);
      const lcp = (median(measured.map((row) => row.lcpMs)) / 1000).toFixed(1);
      const accessibility = [...new Set(measured.map((row) => row.accessibility))].join(', ');
      console.log(`| ${label} | ${median(scores)} | ${Math.min(...scores)}–${Math.max(...scores)} | ${lcp} s | ${accessibility} |`);
    }
  }
} finally {
  rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
}

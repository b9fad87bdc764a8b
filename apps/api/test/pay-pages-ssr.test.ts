import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { checkoutMessages, linkPayMessages } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { card, createStore, linkBodyFor, webPayBodyFor, type TestStore } from './gateway-fixtures.ts';
import { createAccount, createUser, type TestAccount, type TestUser } from './factories.ts';
import { api, testConfig, testDatabase } from './harness.ts';

/*
 * Issue 20, item 15: the two public pay pages come from the server with the payment in their
 * HTML (the store, the product or purpose, the amount), rendered by the web build's server
 * renderer, with the public GET's answer embedded for hydration.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const evilName = `</script><script>alert(1)</script> & "Bells" <b>'n'</b>`;

/** Text as React writes it into HTML. */
const htmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** A built page as the web build writes it (the parts the server fills). */
const template = (name: string) => `<!doctype html>
<html lang="en">
  <head>
    <title>Kestrel</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
  </head>
  <body>
    <div id="root">
      <div role="status"><span class="sr-only">Loading ${name}</span></div>
    </div>
  </body>
</html>
`;

let app: FastifyInstance;
let ssrDir: string;
let store: TestStore;
let owner: TestUser;
let ownerAccount: TestAccount;

beforeAll(async () => {
  // The web build's server renderer, compiled as `npm run build` does (apps/web/build/ssr.ts);
  // beside node_modules, so its imports of React and the rest resolve as they do in apps/web/dist-ssr.
  ssrDir = mkdtempSync(path.join(root, 'node_modules/.cache-kestrel-ssr-test-'));
  await build({
    configFile: path.join(root, 'apps/web/vite.config.ts'),
    root: path.join(root, 'apps/web'),
    logLevel: 'silent',
    build: { ssr: 'src/app/checkout-ssr.tsx', outDir: ssrDir, emptyOutDir: true },
  });
  const config = testConfig();
  const webDist = path.join(config.dataDir, 'web');
  mkdirSync(webDist);
  writeFileSync(path.join(webDist, 'index.html'), template('the portal'));
  writeFileSync(path.join(webDist, 'web-pay.html'), template('the checkout'));
  writeFileSync(path.join(webDist, 'payment-request.html'), template('the link'));
  writeFileSync(
    path.join(webDist, 'pages.json'),
    JSON.stringify([
      { file: 'web-pay.html', path: '/web-pay/:urlId', except: [] },
      { file: 'payment-request.html', path: '/payment-request/:pRequestURLId', except: ['/payment-request/new'] },
    ]),
  );
  app = await buildApp({ config, db: (await testDatabase()).db, logger: false, webDist, webSsr: ssrDir });
  store = await createStore();
  owner = await createUser();
  ownerAccount = await createAccount(owner);
}, 180_000);

afterAll(async () => {
  await app?.close();
  if (ssrDir) rmSync(ssrDir, { recursive: true, force: true });
});

/** GETs a page of the server-rendering app as a browser does. */
async function page(url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  return { status: response.statusCode, html: response.body, headers: response.headers };
}

/** The JSON the page embeds for hydration, and its status. */
function embedded(html: string): { status: number; body: unknown } {
  const match = /<script type="application\/json" id="first-read" data-status="(\d+)">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'the page embeds its first read').not.toBeNull();
  return { status: Number(match![1]), body: JSON.parse(match![2]!) };
}

async function newPayment(overrides: Record<string, unknown> = {}) {
  const response = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor({ amount: 1234.5, ...overrides }) });
  expect(response.status).toBe(200);
  return { paymentId: response.body.data.paymentId as string, urlId: response.body.data.urlId as string };
}

/** Whether the card fields in the page sit inside a disabled fieldset (as the server rendered them). */
function cardFormDisabled(html: string): boolean {
  const fieldset = /<fieldset[^>]*\sdisabled=""[^>]*>([\s\S]*?)<\/fieldset>/.exec(html)?.[1] ?? '';
  return ['number', 'expiresIn', 'cvc'].every((name) => fieldset.includes(`name="${name}"`));
}

describe('GET /web-pay/{urlId}: the hosted checkout, rendered on the server', () => {
  it('paints the store, the product (escaped) and the amount with the HTML, embeds exactly the public GET, and is never stored', async () => {
    const { urlId } = await newPayment({ productName: evilName });
    const publicView = await api('GET', `/v1/payment/${urlId}`);
    expect(publicView.status).toBe(200);

    const { status, html, headers } = await page(`/web-pay/${urlId}`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['cache-control']).toBe('no-store');
    expect(html).not.toContain('Loading the checkout');
    expect(html).toContain(htmlText(publicView.body.data.storeName as string));
    expect(html).toContain('US$ 1,234.50');
    // The product name is text on the page: no element, no script of its own.
    expect(html).toContain(htmlText(evilName));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>');
    // The embedded answer is the public GET's, to the byte once parsed, and closes no element early.
    expect(embedded(html)).toEqual({ status: 200, body: publicView.body });
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    // Until React runs the page, the card form is disabled: pressing Pay cannot submit the bare
    // form, which would put the card number and CVC in the address (and the access log).
    expect(cardFormDisabled(html)).toBe(true);

    // Compressed as the browser accepts, to the same page.
    const brotli = await app.inject({ method: 'GET', url: `/web-pay/${urlId}`, headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(html);
  });

  it('renders a paid payment as its receipt, and an unknown one as the broken-payment card, as the browser does', async () => {
    const { paymentId, urlId } = await newPayment();
    const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: { ...card(), cardHolderName: 'Carol Customer' }, headers: { 'idempotency-key': `ssr-${paymentId}` } });
    expect(paid.status).toBe(200);
    const receipt = await page(`/web-pay/${urlId}`);
    expect(receipt.html).toContain(checkoutMessages.paid);
    expect(receipt.html).toContain('US$ 1,234.50');
    // The server knows no time zone: the date is rendered in UTC until the browser shows the payer's.
    expect(receipt.html).toMatch(/\d{4}, \d{1,2}:\d{2}\s?[AP]M UTC/);

    const unknown = await page('/web-pay/no-such-payment');
    expect(unknown.status).toBe(200);
    expect(unknown.html).toContain(checkoutMessages.broken);
    expect(embedded(unknown.html).status).toBe(404);
  });
});

describe('GET /payment-request/{id}: a payment link, rendered on the server', () => {
  async function newLink(overrides: Record<string, unknown> = {}) {
    const response = await api('POST', '/v1/payment-request/create', {
      token: owner.token,
      body: linkBodyFor(ownerAccount, { paymentPurpose: 'Guitar lessons', amount: { type: 'fixed', currency: 'USD', value: 42.75 }, reference: 'INV-42', ...overrides }),
    });
    expect(response.status).toBe(201);
    return { id: response.body.data._id as string, pRequestURLId: response.body.data.pRequestURLId as string };
  }

  it('paints who asks, the purpose (escaped) and the amount with the HTML, and embeds exactly the public GET', async () => {
    const link = await newLink({ paymentPurpose: evilName });
    const publicView = await api('GET', `/v1/payment-request/link/${link.pRequestURLId}`);
    expect(publicView.status).toBe(200);

    const { status, html, headers } = await page(`/payment-request/${link.pRequestURLId}`);
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(html).toContain(htmlText(publicView.body.data.ownerName as string));
    expect(html).toContain(htmlText(evilName));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('US$ 42.75');
    expect(embedded(html)).toEqual({ status: 200, body: publicView.body });
    expect(cardFormDisabled(html)).toBe(true);
  });

  it('renders a disabled link and an unknown one as the browser does; the owner\'s form stays the portal\'s', async () => {
    const link = await newLink();
    const off = await api('PATCH', `/v1/payment-request/update/${link.id}`, { token: owner.token, body: { status: 'inactive' } });
    expect(off.status).toBe(200);
    expect((await page(`/payment-request/${link.pRequestURLId}`)).html).toContain(linkPayMessages.disabled);
    expect((await page('/payment-request/no-such-link')).html).toContain(linkPayMessages.notFound);

    const form = await page('/payment-request/new');
    expect(form.html).toContain('Loading the portal');
    expect(form.html).not.toContain('first-read');
  });
});

describe('without the web build\'s server renderer', () => {
  it('sends the pay page as built, and the browser renders it as before', async () => {
    const config = testConfig();
    const webDist = path.join(config.dataDir, 'web');
    mkdirSync(webDist);
    writeFileSync(path.join(webDist, 'index.html'), template('the portal'));
    writeFileSync(path.join(webDist, 'web-pay.html'), template('the checkout'));
    writeFileSync(path.join(webDist, 'pages.json'), JSON.stringify([{ file: 'web-pay.html', path: '/web-pay/:urlId', except: [] }]));
    const plain = await buildApp({ config, db: (await testDatabase()).db, logger: false, webDist, webSsr: path.join(config.dataDir, 'no-ssr') });
    try {
      const { urlId } = await newPayment();
      const response = await plain.inject({ method: 'GET', url: `/web-pay/${urlId}` });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(template('the checkout'));
    } finally {
      await plain.close();
    }
  });
});

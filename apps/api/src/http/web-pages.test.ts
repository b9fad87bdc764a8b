import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig, testDatabase } from '../../test/harness.ts';
import { buildApp } from '../app.ts';

/** A built web app in miniature: index.html, three pages of their own and the build's pages.json. */
function webDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<p>the app</p>');
  writeFileSync(path.join(dir, 'login.html'), '<p>login, prerendered</p>');
  writeFileSync(path.join(dir, 'payment-request.html'), '<p>a link pay page</p>');
  writeFileSync(path.join(dir, 'dashboard.html'), '<p>the dashboard skeleton</p>');
  writeFileSync(
    path.join(dir, 'pages.json'),
    JSON.stringify([
      { file: 'login.html', path: '/login', except: [] },
      { file: 'payment-request.html', path: '/payment-request/:pRequestURLId', except: ['/payment-request/new'] },
      { file: 'dashboard.html', path: '/dashboard', except: [], onlyWithCookies: ['userId', 'accessToken'] },
      // Listed but not built: its paths get index.html.
      { file: 'web-pay.html', path: '/web-pay/:urlId', except: [] },
    ]),
  );
  return dir;
}

describe('the web app’s pages', () => {
  it('sends each page its own HTML file (pages.json of the build) and every other path index.html', async () => {
    const handle = await testDatabase();
    const app = await buildApp({ config: testConfig(), db: handle.db, logger: false, webDist: webDist() });
    try {
      const page = async (url: string) => {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type'], url).toMatch(/^text\/html/);
        return response.body;
      };
      expect(await page('/login')).toBe('<p>login, prerendered</p>');
      // As the web app's router: any case, a trailing slash, a query.
      expect(await page('/Login/')).toBe('<p>login, prerendered</p>');
      expect(await page('/login?next=%2Fdashboard')).toBe('<p>login, prerendered</p>');
      expect(await page('/payment-request/abc123')).toBe('<p>a link pay page</p>');
      // The owner's pages under the same prefix are the portal's.
      expect(await page('/payment-request/new')).toBe('<p>the app</p>');
      expect(await page('/payment-request')).toBe('<p>the app</p>');
      expect(await page('/payment-request/details/abc123')).toBe('<p>the app</p>');
      expect(await page('/web-pay/abc123')).toBe('<p>the app</p>');
      expect(await page('/dashboard')).toBe('<p>the app</p>');
      expect(await page('/')).toBe('<p>the app</p>');
      // API paths stay JSON.
      const api = await app.inject({ method: 'GET', url: '/v1/login' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ status: 'error', code: 'route_not_found' });
    } finally {
      await app.close();
    }
  });

  it('sends the dashboard’s signed-in skeleton only to a request carrying the session cookies', async () => {
    const handle = await testDatabase();
    const app = await buildApp({ config: testConfig(), db: handle.db, logger: false, webDist: webDist() });
    try {
      const page = async (cookie?: string) => {
        const response = await app.inject({ method: 'GET', url: '/dashboard', headers: cookie === undefined ? {} : { cookie } });
        expect(response.statusCode).toBe(200);
        expect(response.headers.vary).toMatch(/Cookie/i);
        return response.body;
      };
      expect(await page('userId=u-1; accessToken=t-1; accountNumber=123')).toBe('<p>the dashboard skeleton</p>');
      // A visitor, a half session, an emptied cookie: the app, which sends them to /login.
      expect(await page()).toBe('<p>the app</p>');
      expect(await page('userId=u-1')).toBe('<p>the app</p>');
      expect(await page('userId=u-1; accessToken=')).toBe('<p>the app</p>');
    } finally {
      await app.close();
    }
  });

  it('sends index.html for every path when the build has no pages.json', async () => {
    const handle = await testDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-web-'));
    writeFileSync(path.join(dir, 'index.html'), '<p>the app</p>');
    const app = await buildApp({ config: testConfig(), db: handle.db, logger: false, webDist: dir });
    try {
      for (const url of ['/login', '/web-pay/abc', '/payment-request/abc']) {
        expect((await app.inject({ method: 'GET', url })).body).toBe('<p>the app</p>');
      }
    } finally {
      await app.close();
    }
  });
});

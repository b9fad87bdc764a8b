import { spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { asCents, messages } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs } from 'kysely';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/database.ts';
import { accountNumberValid } from '../src/modules/accounts/account-number.ts';
import { login } from '../src/modules/auth/auth.service.ts';
import { hashToken } from '../src/security/tokens.ts';
import { transferBalance } from '../src/modules/transfers/transfers.service.ts';
import { createAccount, createUser, fundAccount, registerBodyFor, type TestAccount } from './factories.ts';
import { extraTestApp, answerOf, api, testConfig, testServer } from './harness.ts';

/**
 * Issue 8 (security hardening): one test per finding, named after it. Tests that need rate
 * limits on, a trusted proxy or production mode start their own app instance on the shared
 * test database; they speak through X-Forwarded-For from a trusted loopback proxy, with
 * addresses of their own, so their counts never meet another test's.
 */

interface ExtraApp {
  app: FastifyInstance;
  baseUrl: string;
}

const extraApps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(extraApps.map((app) => app.close()));
});

async function startApp(overrides: Partial<Config>): Promise<ExtraApp> {
  const { app, baseUrl } = await extraTestApp(overrides);
  extraApps.push(app);
  return { app, baseUrl };
}

/** An address no other test uses (documentation and private ranges). */
function freshAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

async function call(base: string, method: string, urlPath: string, options: { body?: unknown; token?: string; from?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = options.token;
  if (options.from) headers['x-forwarded-for'] = options.from;
  return answerOf(await fetch(`${base}${urlPath}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
}

async function sessionIp(db: Db, token: string): Promise<string | null> {
  const row = await db.selectFrom('sessions').select('ip').where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow();
  return row.ip;
}

async function uploadTo(token: string, accountId: string, files: { name: string; bytes: Buffer; type: string }[]) {
  const server = await testServer();
  const form = new FormData();
  form.append('accountId', accountId);
  for (const file of files) form.append('identityImage', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(`${server.baseUrl}/v1/account/upload-image`, { method: 'PATCH', headers: { authorization: token }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

describe('issue 8: security hardening', () => {
  it('1. the login throttle is not a check-then-insert race: a parallel burst gets at most the limit checked', { timeout: 180_000 }, async () => {
    const { baseUrl } = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    const user = await createUser();

    // Per e-mail (and address): 40 parallel wrong passwords. Issue 19: 10 free failures, then
    // one attempt whose failure starts the delay; the rest wait (429 with Retry-After).
    const from = freshAddress();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(baseUrl, 'POST', '/v1/auth/login', { from, body: { email: user.email, password: `wrong-${i}` } })),
    );
    // A burst served over T seconds admits one more per doubling of the wait (1 s, 2 s, 4 s…):
    // at most free + 1 + log2(T), so up to 7 beyond the free ones on a machine that takes a minute.
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(11);
    expect(checked).toBeLessThanOrEqual(17);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(40 - checked);
    expect(burst.find((r) => r.status === 429)?.body.error).toBe(messages.login.rateLimited);

    // Per address: 70 parallel wrong passwords for 70 different e-mails from one address: 50 free, then one.
    const oneAddress = freshAddress();
    const spread = await Promise.all(
      Array.from({ length: 70 }, (_, i) => call(baseUrl, 'POST', '/v1/auth/login', { from: oneAddress, body: { email: `nobody-${i}-${user.email}`, password: 'x' } })),
    );
    const spreadChecked = spread.filter((r) => r.status === 401).length;
    expect(spreadChecked).toBeGreaterThanOrEqual(51);
    expect(spreadChecked).toBeLessThanOrEqual(57);
    expect(spread.filter((r) => r.status === 429)).toHaveLength(70 - spreadChecked);
  });

  it('2. X-Forwarded-For is believed only from the proxies named in TRUST_PROXY', async () => {
    const { db } = await testServer();
    const user = await createUser();
    const account = await createAccount(user);
    const credentials = { email: user.email, password: user.password };

    // Production with no TRUST_PROXY: the header is anyone's to write, so it is ignored.
    const direct = await startApp({ nodeEnv: 'production', trustProxy: [] });
    const forged = await call(direct.baseUrl, 'POST', '/v1/auth/login', { from: '6.6.6.6', body: credentials });
    expect(forged.status).toBe(200);
    expect(await sessionIp(db, forged.body.data.token)).toBe('127.0.0.1');
    const activity = await db
      .selectFrom('activities')
      .select('comment')
      .where('accountId', '=', account.accountId)
      .where('name', '=', 'Login')
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    expect(activity.comment).toBe('Signed in from 127.0.0.1');

    // The setting: addresses or CIDRs, comma-separated; anything else stops the start.
    const settings = { DATA_DIR: testConfig().dataDir, SECRET_KEY: 'x'.repeat(64) };
    expect(loadConfig(settings).trustProxy).toEqual([]);
    expect(loadConfig({ ...settings, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => loadConfig({ ...settings, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...settings, TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);

    // Behind a named proxy, the address it forwards is the caller's.
    const proxied = await startApp({ nodeEnv: 'production', trustProxy: ['127.0.0.1'] });
    const forwarded = await call(proxied.baseUrl, 'POST', '/v1/auth/login', { from: '203.0.113.9', body: credentials });
    expect(forwarded.status).toBe(200);
    expect(await sessionIp(db, forwarded.body.data.token)).toBe('203.0.113.9');
  });

  it('3. wrong passwords from elsewhere cannot lock the owner out, while spread guessing stays bounded', { timeout: 180_000 }, async () => {
    const { baseUrl } = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    const user = await createUser();
    const attacker = freshAddress();
    for (let i = 0; i < 12; i++) {
      const attempt = await call(baseUrl, 'POST', '/v1/auth/login', { from: attacker, body: { email: user.email, password: `guess-${i}` } });
      // Issue 19: 10 free failures and the 11th are checked; the 12th waits unless a second has passed.
      if (i < 11) expect(attempt.status).toBe(401);
      else expect([401, 429]).toContain(attempt.status);
    }
    // The owner, from their own address, signs in.
    const owner = await call(baseUrl, 'POST', '/v1/auth/login', { from: freshAddress(), body: { email: user.email, password: user.password } });
    expect(owner.status).toBe(200);

    // Guessing spread over many addresses meets the per-e-mail delay (issue 19: 20 free failures, then one, then waits).
    const victim = await createUser();
    const spread = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(baseUrl, 'POST', '/v1/auth/login', { from: `192.0.2.${i % 50}`, body: { email: victim.email, password: `spread-${i}` } })),
    );
    const guessed = spread.filter((r) => r.status === 401).length;
    expect(guessed).toBeGreaterThanOrEqual(21);
    expect(guessed).toBeLessThanOrEqual(27);
    expect(spread.filter((r) => r.status === 429)).toHaveLength(100 - guessed);
    // Five more at once: each admitted guess doubles the wait, so nearly all wait.
    const more = await Promise.all(
      Array.from({ length: 5 }, () => call(baseUrl, 'POST', '/v1/auth/login', { from: freshAddress(), body: { email: victim.email, password: 'one more' } })),
    );
    expect(more.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(4);
    for (const r of more.filter((response) => response.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('4. identity documents are re-encoded: metadata stripped, polyglots and decompression bombs refused', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'SpyCam', Model: 'Model X9', Artist: 'Alice Example', Copyright: 'Alice Example' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    expect(photo.includes('SpyCam')).toBe(true);

    const uploaded = await uploadTo(user.token, account.accountId, [{ name: 'passport.jpg', bytes: photo, type: 'image/jpeg' }]);
    expect(uploaded.status).toBe(200);
    const served = await api('GET', uploaded.body.data[0].url, { token: user.token });
    expect(served.status).toBe(200);
    const response = await fetch(`${(await testServer()).baseUrl}${uploaded.body.data[0].url}`, { headers: { authorization: user.token } });
    const stored = Buffer.from(await response.arrayBuffer());
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(metadata.exif).toBeUndefined();
    for (const secret of ['SpyCam', 'Model X9', 'Alice Example']) expect(stored.includes(secret), secret).toBe(false);

    // A JPEG that is also an HTML page.
    const polyglot = Buffer.concat([photo, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
    const refusedPolyglot = await uploadTo(user.token, account.accountId, [{ name: 'id.jpg', bytes: polyglot, type: 'image/jpeg' }]);
    expect(refusedPolyglot.status).toBe(400);
    expect(refusedPolyglot.body).toMatchObject({ code: 'image_polyglot', fields: { identityImage: messages.account.identityImagesOnly } });

    // A small PNG that declares 30,000 × 30,000 pixels.
    const bomb = await pngDeclaring(30_000, 30_000);
    const refusedBomb = await uploadTo(user.token, account.accountId, [{ name: 'bomb.png', bytes: bomb, type: 'image/png' }]);
    expect(refusedBomb.status).toBe(400);
    expect(refusedBomb.body).toMatchObject({ code: 'image_too_large' });
    expect(refusedBomb.body.error).toBe(`${messages.account.identityImagesOnly}: 'bomb.png' is too large: at most 40 megapixels`);

    const listed = await api('GET', `/v1/account/${account.accountId}`, { token: user.token });
    expect(listed.body.data.identityImages).toHaveLength(1);
  });

  it('5. a NUL byte in any text field is refused with 400 and a clear message, never a 500', async () => {
    const user = await createUser();
    const sender = await createAccount(user);
    const expected = { status: 'error', error: 'Text must not contain NUL (\\u0000) characters', code: 'nul_character' };

    const register = await api('POST', '/v1/user/register', { body: registerBodyFor({ firstName: 'Nul\u0000Name' }) });
    const signIn = await api('POST', '/v1/auth/login', { body: { email: `a\u0000${user.email}`, password: 'x' } });
    const inAKey = await api('POST', '/v1/auth/login', { body: { email: user.email, password: 'x', 'x\u0000': 1 } });
    const search = await api('GET', '/v1/account/search?query=ab%00cd', { token: user.token });
    const pathParam = await api('GET', '/v1/account/ab%00cd', { token: user.token });
    const transfer = await api('POST', '/v1/account/transfer_balance', {
      token: user.token,
      body: { debitAccountKey: sender.userName, creditAccountKey: 'x\u0000y', currency: 'USD', balance: 1, tpin: sender.tpin },
    });
    for (const [name, response] of Object.entries({ register, signIn, inAKey, search, pathParam, transfer })) {
      expect(response.status, name).toBe(400);
      expect(response.body, name).toEqual(expected);
    }
  });

  it('6. recipient search needs a verified e-mail and an account, is limited per user, and account numbers are random', async () => {
    const target = await createUser();
    const targetAccount = await createAccount(target);

    const unverified = await createUser({ verified: false });
    const noAccount = await createUser();
    for (const caller of [unverified, noAccount]) {
      const response = await api('GET', `/v1/account/search?query=${targetAccount.accountNumber}`, { token: caller.token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ status: 'error', error: 'Verify your email and open an account before searching for recipients', code: 'search_not_allowed' });
    }

    // Per user: 30 a minute, whatever address each search comes from.
    const { baseUrl } = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    const searcher = await createUser();
    await createAccount(searcher);
    const answers = [];
    for (let i = 0; i < 31; i++) {
      answers.push(await call(baseUrl, 'GET', `/v1/account/search?query=${targetAccount.accountNumber}`, { token: searcher.token, from: freshAddress() }));
    }
    expect(answers.slice(0, 30).every((r) => r.status === 200)).toBe(true);
    expect(answers[0]!.body.data.map((r: { accountNumber: string }) => r.accountNumber)).toEqual([targetAccount.accountNumber]);
    expect(answers[30]!.status).toBe(429);

    // Sign-up is throttled per address (30 an hour).
    const signupFrom = freshAddress();
    const signups = [];
    for (let i = 0; i < 31; i++) signups.push(await call(baseUrl, 'POST', '/v1/user/register', { from: signupFrom, body: registerBodyFor() }));
    expect(signups.slice(0, 30).every((r) => r.status === 201)).toBe(true);
    expect(signups[30]!.status).toBe(429);

    // New account numbers: 12 digits with a Luhn check digit, not in sequence.
    const owner = await createUser();
    const accounts: TestAccount[] = [];
    for (let i = 0; i < 6; i++) accounts.push(await createAccount(owner));
    const bases = accounts.map((account) => Number(account.accountNumber.slice(0, -1)));
    for (const account of accounts) {
      expect(account.accountNumber).toMatch(/^[1-9]\d{11}$/);
      expect(accountNumberValid(account.accountNumber)).toBe(true);
    }
    const steps = bases.slice(1).map((base, i) => Math.abs(base - bases[i]!));
    expect(steps.every((step) => step > 1000)).toBe(true);
  });

  it('7. no transfer moves money once the TPIN lock is written, even when it started before the lock committed', async () => {
    const server = await testServer();
    const user = await createUser();
    const sender = await createAccount(user);
    const recipient = await createAccount(await createUser());
    await fundAccount(sender.accountId, 10_000);
    const transfer = { debitAccountKey: sender.userName, creditAccountKey: recipient.userName, currency: 'USD' as const, balance: 1, tpin: sender.tpin };
    expect((await api('POST', '/v1/account/transfer_balance', { token: user.token, body: transfer })).status).toBe(200);

    // The TPIN check and the movement are one database call under the sender's row lock: a
    // transfer sent while another transaction is writing the lock waits for it and is refused.
    const caller = { userId: user.userId, tokenHash: hashToken(user.token) };
    let inFlight: Promise<unknown> | undefined;
    await server.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set({ tpinLockedUntil: new Date(Date.now() + 30 * 60_000), tpinFailedAttempts: 0 })
        .where('id', '=', sender.accountId)
        .execute();
      inFlight = transferBalance(server.app.ctx, caller, { ...transfer, balance: asCents(100) }, undefined, '127.0.0.1').catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(await inFlight).toMatchObject({ statusCode: 423, code: 'tpin_locked' });

    const balance = await api('GET', `/v1/account/${sender.accountNumber}`, { token: user.token });
    expect(balance.body.data.balance).toEqual([{ currency: 'USD', amount: 99 }]);
  });

  it('8. personal data is not cacheable: signed-in answers, the sign-in answer and identity images are no-store', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const signIn = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    const profile = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    const accountView = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
    const refused = await api('GET', `/v1/account/${account.accountNumber}`, { token: 'not-a-token' });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const uploaded = await uploadTo(user.token, account.accountId, [{ name: 'id.png', bytes: png, type: 'image/png' }]);
    const image = await api('GET', uploaded.body.data[0].url, { token: user.token });
    for (const [name, response] of Object.entries({ signIn, profile, accountView, refused, image })) {
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
    // Public, non-personal answers keep their own caching.
    expect((await api('GET', '/data/v1/countries')).headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('9. rate limits are shared by every API process (counted in PostgreSQL)', async () => {
    const first = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    const second = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'] });
    const from = freshAddress();
    const caller = await createUser();
    // POST /v1/user/send-verification-code allows 5 per address per 15 minutes, counted after
    // the caller is known (guards run first, issue 19 item 6) and before the body is validated.
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const response = await call(i % 2 === 0 ? first.baseUrl : second.baseUrl, 'POST', '/v1/user/send-verification-code', { from, body: {}, token: caller.token });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it.skipIf(!redisServerInstalled())('9. with REDIS_URL the counters live in Redis, shared by every API process', async () => {
    const redis = await startRedis();
    try {
      const first = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'], redisUrl: redis.url });
      const second = await startApp({ rateLimits: true, trustProxy: ['127.0.0.1'], redisUrl: redis.url });
      const from = freshAddress();
      const caller = await createUser();
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await call(i % 2 === 0 ? first.baseUrl : second.baseUrl, 'POST', '/v1/user/send-verification-code', { from, body: {}, token: caller.token })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);

      // The fixed-window counters are in Redis, none in PostgreSQL.
      const { db } = await testServer();
      const inPostgres = await db
        .selectFrom(sql<{ key: string }>`rate_limit_counters`.as('c'))
        .select('c.key')
        .where('c.key', 'like', `%${from}%`)
        .execute();
      expect(inPostgres).toEqual([]);

      // The sign-in delay (issue 19) is shared by both processes too; it keeps its state in
      // PostgreSQL even with REDIS_URL (README, Security): a burst over both gets 11 checks (a few more on a slow machine).
      const user = await createUser();
      const burst = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          call(i % 2 === 0 ? first.baseUrl : second.baseUrl, 'POST', '/v1/auth/login', { from, body: { email: user.email, password: `wrong-${i}` } }),
        ),
      );
      const checked = burst.filter((r) => r.status === 401).length;
      expect(checked).toBeGreaterThanOrEqual(11);
      expect(checked).toBeLessThanOrEqual(17);
    } finally {
      await redis.stop();
    }
  });

  it('10. the mailbox is served only to loopback callers and only while mail goes to the outbox; development on a network is warned about', async () => {
    const proxied = await startApp({ nodeEnv: 'development', trustProxy: ['127.0.0.1'] });
    expect((await call(proxied.baseUrl, 'GET', '/dev/mailbox.json')).status).toBe(200);
    const remote = await call(proxied.baseUrl, 'GET', '/dev/mailbox.json', { from: '198.51.100.7' });
    expect(remote.status).toBe(404);
    expect(remote.body.code).toBe('route_not_found');
    expect((await call(proxied.baseUrl, 'GET', '/dev/mailbox', { from: '198.51.100.7' })).status).toBe(404);
    expect((await call(proxied.baseUrl, 'GET', `/dev/mailbox/${crypto.randomUUID()}/html`, { from: '198.51.100.7' })).body.code).toBe('route_not_found');

    const smtp = await startApp({ nodeEnv: 'development', smtpUrl: 'smtp://127.0.0.1:1' });
    expect((await call(smtp.baseUrl, 'GET', '/dev/mailbox.json')).status).toBe(404);

    const config = (await import('../src/config.ts')) as { startupWarnings?: (c: Pick<Config, 'nodeEnv' | 'host'>) => string[] };
    expect(config.startupWarnings).toBeTypeOf('function');
    const warnings = config.startupWarnings!;
    expect(warnings({ nodeEnv: 'development', host: '0.0.0.0' })).toEqual([expect.stringContaining('WARNING: development mode')]);
    expect(warnings({ nodeEnv: 'development', host: '127.0.0.1' })).toEqual([]);
    expect(warnings({ nodeEnv: 'production', host: '0.0.0.0' })).toEqual([]);
  });

  it('login writes its session, audit entry and activity in one database transaction', async () => {
    const { app, db } = await testServer();
    const user = await createUser();
    await createAccount(user);
    // The 'Login' activity fails to write: nothing of the sign-in may stay behind.
    const failing = db.withPlugin(failInsertsInto('activities'));
    const ctx: AppContext = { ...app.ctx, db: failing };
    await expect(login(ctx, { email: user.email, password: user.password }, { ip: '127.0.0.1' })).rejects.toThrow('activities refused');
    const sessions = await db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute();
    const audits = await db.selectFrom('auditLog').select('id').where('actorUserId', '=', user.userId).where('action', '=', 'auth.login').execute();
    // The one session is the sign-up's own.
    expect(sessions).toHaveLength(1);
    expect(audits).toHaveLength(0);
  });
});

function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** A throw-away Redis on a free loopback port, without persistence. */
async function startRedis() {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 40 });
  client.on('error', () => undefined); // refused until the server has started; ping retries
  await client.ping();
  return {
    url,
    client,
    async stop() {
      client.disconnect();
      child.kill();
    },
  };
}

/** A PNG whose header declares width × height pixels, with one tiny (incomplete) data chunk. */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const real = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const { crc32 } = await import('node:zlib');
  const bytes = Buffer.from(real);
  // IHDR data starts after the signature (8), length (4) and type (4).
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

/** A Kysely plugin that makes every INSERT into `table` fail before it is sent. */
function failInsertsInto(table: string): KyselyPlugin {
  return {
    transformQuery(args: PluginTransformQueryArgs) {
      const node = args.node as { kind: string; into?: { table?: { identifier?: { name?: string } } } };
      if (node.kind === 'InsertQueryNode' && node.into?.table?.identifier?.name === table) throw new Error(`${table} refused`);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs) {
      return args.result;
    },
  };
}


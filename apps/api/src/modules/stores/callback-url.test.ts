import { createServer, type Server } from 'node:net';
import { storeMessages } from '@kestrel/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { urlTargetsPrivateAddress } from '../../security/private-addresses.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { storeFields, storeImages } from '../../../test/gateway-fixtures.ts';
import { extraTestApp, testServer } from '../../../test/harness.ts';

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** An app on the shared test database with private callbacks refused (the production default). */
async function productionLikeApp(): Promise<string> {
  const { app, config, baseUrl } = await extraTestApp();
  closers.push(() => app.close());
  expect(config.allowPrivateCallbacks).toBe(false);
  return baseUrl;
}

async function postStoreTo(baseUrl: string, token: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of storeImages()) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: 'image/png' }), file.name);
  const response = await fetch(`${baseUrl}/v1/payment_gateway_store/create`, { method: 'POST', headers: { authorization: token }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** A loopback TCP listener that counts connections: proof that a refused URL was never contacted. */
async function countingListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { port: address.port, connections: () => connections };
}

describe('issue 19 item 7: private and metadata callback URLs are refused at store creation', () => {
  it('answers 400 with the field message for metadata, private, ULA and every loopback form, and sends nothing', { timeout: 240_000 }, async () => {
    const baseUrl = await productionLikeApp();
    const owner = await createUser();
    const account = await createAccount(owner);
    const listener = await countingListener();
    const refused = [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://10.0.0.1/kestrel/callback',
      'http://192.168.1.10/kestrel/callback',
      'http://[fd00::1]/kestrel/callback',
      'http://[fe80::1]/kestrel/callback',
      'http://127.0.0.1/kestrel/callback',
      'http://2130706433/kestrel/callback',
      'http://0x7f000001/kestrel/callback',
      'http://127.1/kestrel/callback',
      'http://0.0.0.0/kestrel/callback',
      'http://[::1]/kestrel/callback',
      'http://[::ffff:127.0.0.1]/kestrel/callback',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://[::127.0.0.1]/kestrel/callback',
      `http://localhost:${listener.port}/kestrel/callback`,
      `https://LOCALHOST./kestrel/callback`,
    ];
    for (const callbackURL of refused) {
      const response = await postStoreTo(baseUrl, owner.token, storeFields(account, { callbackURL }));
      expect({ callbackURL, status: response.status, body: response.body }).toEqual({
        callbackURL,
        status: 400,
        body: { status: 'error', error: storeMessages.callbackUrlPrivate, code: 'callback_url_private', fields: { callbackURL: storeMessages.callbackUrlPrivate } },
      });
    }
    expect(listener.connections()).toBe(0);
    const { db } = await testServer();
    expect(await db.selectFrom('stores').select('id').where('accountId', '=', account.accountId).execute()).toHaveLength(0);

    // A public address, and a name that does not resolve (left to the delivery-time guard), are accepted.
    for (const callbackURL of ['https://93.184.215.14/kestrel/callback', 'https://shop.example.test/kestrel/callback']) {
      expect((await postStoreTo(baseUrl, owner.token, storeFields(account, { callbackURL }))).status, callbackURL).toBe(201);
    }
  });

  it('accepts loopback callback URLs where private callbacks are allowed (development)', async () => {
    const { baseUrl } = await testServer();
    const owner = await createUser();
    const account = await createAccount(owner);
    const response = await postStoreTo(baseUrl, owner.token, storeFields(account, { callbackURL: 'http://127.0.0.1:9/kestrel/callback' }));
    expect(response.status).toBe(201);
  });

  it('judges names by every address they resolve to, without contacting them', async () => {
    expect(await urlTargetsPrivateAddress('http://localhost/x')).toBe(true);
    expect(await urlTargetsPrivateAddress('http://93.184.215.14/x')).toBe(false);
    expect(await urlTargetsPrivateAddress('http://[2606:4700::1111]/x')).toBe(false);
    expect(await urlTargetsPrivateAddress('http://no-such-host.invalid/x')).toBe(false);
  });
});

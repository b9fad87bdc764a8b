import { readdirSync } from 'node:fs';
import path from 'node:path';
import { storeMessages } from '@kestrel/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { createStore, operatorToken, postStore, storeFields, storeImages, tinyPng } from '../../../test/gateway-fixtures.ts';
import { decryptStoreKey, encryptStoreKey, storeKeyMatches } from './store-key.ts';

async function storedFiles(area: string): Promise<number> {
  const { config } = await testServer();
  try {
    return readdirSync(path.join(config.dataDir, 'uploads', area)).length;
  } catch {
    return 0;
  }
}

describe('store keys', () => {
  it('round-trips through AES-256-GCM and refuses a tampered or foreign-secret blob', () => {
    const secret = 's'.repeat(64);
    const sealed = encryptStoreKey(secret, 'my-store-key');
    expect(sealed).not.toContain('my-store-key');
    expect(decryptStoreKey(secret, sealed)).toBe('my-store-key');
    expect(() => decryptStoreKey('t'.repeat(64), sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other-store-key').toString('base64url');
    expect(() => decryptStoreKey(secret, parts.join('.'))).toThrow();
    expect(storeKeyMatches(secret, 'abc', 'abc')).toBe(true);
    expect(storeKeyMatches(secret, 'abc', 'abd')).toBe(false);
    expect(storeKeyMatches(secret, 'abc', 'abcd')).toBe(false);
  });
});

describe('POST /v1/payment_gateway_store/create', () => {
  it('creates a Pending store with random credentials, the key encrypted at rest', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const fields = storeFields(account);
    const response = await postStore(owner.token, fields, storeImages());
    expect(response.status).toBe(201);
    expect(response.body.message).toBe(storeMessages.created);
    const store = response.body.data;
    expect(store).toMatchObject({ storeName: fields.storeName, storeURL: fields.storeURL, callbackURL: fields.callbackURL, status: 'Pending', accountEmail: account.accountEmail });
    expect(store.storeId).toMatch(/^[0-9a-f]{32}$/);
    expect(Buffer.from(store.storeKey, 'base64url').length).toBeGreaterThanOrEqual(16);

    const { db } = await testServer();
    const row = await db.selectFrom('stores').selectAll().where('storeId', '=', store.storeId).executeTakeFirstOrThrow();
    expect(row.storeKeyEncrypted).not.toContain(store.storeKey);
    expect(await db.selectFrom('storeDocuments').select('id').where('storeId', '=', row.id).execute()).toHaveLength(2);

    const logo = await fetch(`${(await testServer()).baseUrl}${store.storeLogo}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');

    const activities = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: owner.token });
    expect(JSON.stringify(activities.body)).toContain('Payment gateway store created');
  });

  it('answers every bad input with the exact message and stores nothing', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const before = { logos: await storedFiles('store-logos'), documents: await storedFiles('store-documents') };
    const cases: [Record<string, string>, ReturnType<typeof storeImages>, number, string][] = [
      [storeFields(account, { storeName: '' }), storeImages(), 400, storeMessages.storeNameRequired],
      [storeFields(account, { storeURL: '' }), storeImages(), 400, storeMessages.storeUrlRequired],
      [storeFields(account, { callbackURL: '' }), storeImages(), 400, storeMessages.callbackUrlRequired],
      [storeFields(account, { callbackURL: 'ftp://shop.example.test/cb' }), storeImages(), 400, storeMessages.urlInvalid],
      [storeFields(account, { storeURL: 'javascript:alert(1)' }), storeImages(), 400, storeMessages.urlInvalid],
      [storeFields(account, { tpin: '12' }), storeImages(), 400, storeMessages.tpinDigits],
      [storeFields(account, { tpin: '' }), storeImages(), 400, storeMessages.tpinRequired],
      [storeFields(account), storeImages().filter((file) => file.field !== 'storeLogo'), 400, storeMessages.logoRequired],
      [storeFields(account), storeImages().filter((file) => file.field === 'storeLogo'), 400, storeMessages.documentsRequired],
      [storeFields(account), [...storeImages(), { field: 'storeLogo', name: 'second.png', bytes: tinyPng() }], 400, storeMessages.oneLogo],
      [
        storeFields(account),
        [{ field: 'storeLogo', name: 'logo.png', bytes: Buffer.from('just text, not an image') }, ...storeImages().slice(1)],
        400,
        `${storeMessages.imagesOnly}: 'logo.png' is not an image`,
      ],
      [
        storeFields(account),
        [storeImages()[0]!, { field: 'businessDocuments', name: 'doc.svg', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/svg+xml' }],
        400,
        `${storeMessages.imagesOnly}: 'doc.svg' is not an image`,
      ],
    ];
    for (const [fields, files, status, message] of cases) {
      const response = await postStore(owner.token, fields, files);
      expect({ status: response.status, error: response.body.error }).toEqual({ status, error: message });
    }
    const wrongTpin = await postStore(owner.token, storeFields(account, { tpin: account.tpin === '0000' ? '1111' : '0000' }), storeImages());
    expect(wrongTpin.status).toBe(400);
    expect(wrongTpin.body.code).toBe('tpin_incorrect');
    const big = await postStore(owner.token, storeFields(account), [storeImages()[0]!, { field: 'businessDocuments', name: 'big.png', bytes: Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024)]) }]);
    expect(big.status).toBe(413);
    expect(big.body.error).toBe(storeMessages.tooLarge);

    const { db } = await testServer();
    expect(await db.selectFrom('stores').select('id').where('accountId', '=', account.accountId).execute()).toHaveLength(0);
    expect({ logos: await storedFiles('store-logos'), documents: await storedFiles('store-documents') }).toEqual(before);
  });

  it('locks store creation after five wrong TPINs, like every money route', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const wrong = account.tpin === '0000' ? '1111' : '0000';
    for (let i = 0; i < 5; i++) await postStore(owner.token, storeFields(account, { tpin: wrong }), storeImages());
    const locked = await postStore(owner.token, storeFields(account), storeImages());
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe('tpin_locked');
  });

  it("refuses someone else's account (404), another userId (403) and no token (401)", async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const stranger = await createUser();
    expect((await postStore(stranger.token, storeFields(account), storeImages())).status).toBe(404);
    expect((await postStore(owner.token, storeFields(account, { userId: stranger.userId }), storeImages())).status).toBe(403);
    expect((await postStore(undefined, storeFields(account), storeImages())).status).toBe(401);
  });
});

describe('reading stores', () => {
  it('shows a store and the list (with real counters) to its owner only', async () => {
    const store = await createStore({ approve: false });
    const stranger = await createUser();
    await createAccount(stranger);

    const one = await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ storeId: store.storeId, storeKey: store.storeKey, status: 'Pending' });
    const list = await api('GET', `/v1/payment_gateway_store/account/${store.account.accountEmail.toUpperCase()}`, { token: store.owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.stores.map((entry: { storeId: string }) => entry.storeId)).toEqual([store.storeId]);
    expect(list.body.data.counters).toEqual({ totalPayments: 0, totalSuccess: 0, totalTransactions: 0, totalRefund: 0, totalRefundAmount: 0 });

    for (const path of [`/v1/payment_gateway_store/${store.storeId}`, `/v1/payment_gateway_store/account/${store.account.accountEmail}`]) {
      const response = await api('GET', path, { token: stranger.token });
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain(store.storeKey);
      expect((await api('GET', path)).status).toBe(401);
    }
    expect((await api('GET', '/v1/payment_gateway_store/no-such-store', { token: store.owner.token })).status).toBe(404);
  });
});

describe('store review by operators', () => {
  it('approves a Pending store, audited, with an activity for the owner', async () => {
    const store = await createStore({ approve: false });
    const token = await operatorToken();
    const pending = await api('GET', '/v1/operator/stores?status=Pending', { token });
    const entry = pending.body.data.find((row: { storeId: string }) => row.storeId === store.storeId);
    expect(entry).toMatchObject({ status: 'Pending' });
    expect(entry.documents).toHaveLength(2);
    expect(entry.storeKey).toBeUndefined();
    const { baseUrl } = await testServer();
    const document = await fetch(`${baseUrl}${entry.documents[0].url}`, { headers: { authorization: token } });
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('image/png');
    // A fresh (lossless) encoding of the uploaded pixels, not the uploaded bytes (the upload pipeline).
    const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();
    expect((await pixels(Buffer.from(await document.arrayBuffer()))).equals(await pixels(tinyPng()))).toBe(true);
    expect((await fetch(`${baseUrl}${entry.documents[0].url}`, { headers: { authorization: store.owner.token } })).status).toBe(404);

    const noReason = await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token, body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toBe(storeMessages.reasonRequired);
    const approved = await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token, body: { reason: 'Documents match the shop' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('Approved');
    const again = await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token, body: { reason: 'again' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(storeMessages.notPending);

    const activities = await api('GET', `/v1/activities?accountId=${store.account.accountId}`, { token: store.owner.token });
    expect(JSON.stringify(activities.body)).toContain('Payment gateway store approved');
    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').select('action').where('subjectId', '=', store.storeId).execute();
    expect(audit.map((row) => row.action).sort()).toEqual(['store.approved', 'store.created']);
  });

  it('rejects with a reason the owner sees, and needs one', async () => {
    const store = await createStore({ approve: false });
    const token = await operatorToken();
    const noReason = await api('POST', `/v1/operator/stores/${store.storeId}/reject`, { token, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toBe(storeMessages.reasonRequired);
    const rejected = await api('POST', `/v1/operator/stores/${store.storeId}/reject`, { token, body: { reason: 'Business documents are unreadable' } });
    expect(rejected.status).toBe(200);
    const seen = await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token });
    expect(seen.body.data).toMatchObject({ status: 'Rejected', statusReason: 'Business documents are unreadable' });
  });

  it('is invisible to everyone but operators', async () => {
    const store = await createStore({ approve: false });
    expect((await api('POST', `/v1/operator/stores/${store.storeId}/approve`, { token: store.owner.token })).status).toBe(404);
    expect((await api('GET', '/v1/operator/stores', { token: store.owner.token })).status).toBe(404);
    expect((await api('POST', `/v1/operator/stores/${store.storeId}/approve`)).status).toBe(401);
  });
});

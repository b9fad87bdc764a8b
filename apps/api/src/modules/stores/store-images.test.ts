import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { storeMessages } from '@kestrel/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testServer } from '../../../test/harness.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { operatorToken, postStore, storeFields, tinyPng } from '../../../test/gateway-fixtures.ts';

/** What the pentest uploaded: a JPEG whose Exif block holds a GPS position, a camera make and the author's name. */
function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 30, g: 90, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SpyCam', Model: 'Model X9', Artist: 'Alice Example', Copyright: 'Alice Example' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

const SECRETS = ['SpyCam', 'Model X9', 'Alice Example', 'Exif'];

async function expectNoMetadata(bytes: Buffer, what: string) {
  const metadata = await sharp(bytes).metadata();
  expect(metadata.exif, what).toBeUndefined();
  expect(metadata.iptc, what).toBeUndefined();
  expect(metadata.xmp, what).toBeUndefined();
  for (const secret of SECRETS) expect(bytes.includes(secret), `${what}: ${secret}`).toBe(false);
}

describe('issue 19 item 3: store logos and business documents go through the upload pipeline', () => {
  it('keeps no EXIF (GPS, camera, author) in the stored or served logo and documents', async () => {
    const server = await testServer();
    const photo = await jpegWithExif();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    expect(photo.includes('SpyCam') && photo.includes('Alice Example')).toBe(true);

    const owner = await createUser();
    const account = await createAccount(owner);
    const created = await postStore(owner.token, storeFields(account), [
      { field: 'storeLogo', name: 'logo.jpg', bytes: photo, type: 'image/jpeg' },
      { field: 'businessDocuments', name: 'licence.jpg', bytes: photo, type: 'image/jpeg' },
    ]);
    expect(created.status).toBe(201);
    const { storeId, storeLogo } = created.body.data as { storeId: string; storeLogo: string };

    // Served: the logo to anyone, the document to an operator; both are a fresh JPEG of the same pixels.
    const logo = await fetch(`${server.baseUrl}${storeLogo}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/jpeg');
    const servedLogo = Buffer.from(await logo.arrayBuffer());
    expect(await sharp(servedLogo).metadata()).toMatchObject({ format: 'jpeg', width: 40, height: 30 });
    await expectNoMetadata(servedLogo, 'served logo');

    const ops = await operatorToken();
    const review = await fetch(`${server.baseUrl}/v1/operator/stores?status=Pending`, { headers: { authorization: ops } });
    const pending = ((await review.json()) as { data: { storeId: string; documents: { url: string }[] }[] }).data.find((store) => store.storeId === storeId);
    expect(pending?.documents).toHaveLength(1);
    const document = await fetch(`${server.baseUrl}${pending!.documents[0]!.url}`, { headers: { authorization: ops } });
    expect(document.status).toBe(200);
    await expectNoMetadata(Buffer.from(await document.arrayBuffer()), 'served document');

    // Stored: the files on disk are the re-encoded ones.
    const row = await server.db.selectFrom('stores').select(['id', 'logoStoredName']).where('storeId', '=', storeId).executeTakeFirstOrThrow();
    const documents = await server.db.selectFrom('storeDocuments').select('storedName').where('storeId', '=', row.id).execute();
    await expectNoMetadata(readFileSync(path.join(server.config.dataDir, 'uploads', 'store-logos', row.logoStoredName)), 'stored logo');
    for (const stored of documents) {
      await expectNoMetadata(readFileSync(path.join(server.config.dataDir, 'uploads', 'store-documents', stored.storedName)), 'stored document');
    }
  }, 240_000);

  it('refuses a polyglot logo and an oversized document like an identity image, storing nothing', async () => {
    const server = await testServer();
    const owner = await createUser();
    const account = await createAccount(owner);
    const filesIn = (area: string) => {
      try {
        return readdirSync(path.join(server.config.dataDir, 'uploads', area)).length;
      } catch {
        return 0;
      }
    };
    const before = [filesIn('store-logos'), filesIn('store-documents')];

    const polyglot = Buffer.concat([await jpegWithExif(), Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
    const refusedPolyglot = await postStore(owner.token, storeFields(account), [
      { field: 'storeLogo', name: 'logo.jpg', bytes: polyglot, type: 'image/jpeg' },
      { field: 'businessDocuments', name: 'licence.png', bytes: tinyPng() },
    ]);
    expect(refusedPolyglot.status).toBe(400);
    expect(refusedPolyglot.body).toMatchObject({ code: 'image_polyglot', fields: { storeLogo: storeMessages.imagesOnly } });

    // A PNG header declaring 30,000 × 30,000 pixels (a decompression bomb) as a business document.
    const bomb = tinyPng();
    bomb.writeUInt32BE(30_000, 16);
    bomb.writeUInt32BE(30_000, 20);
    const refusedBomb = await postStore(owner.token, storeFields(account), [
      { field: 'storeLogo', name: 'logo.png', bytes: tinyPng() },
      { field: 'businessDocuments', name: 'bomb.png', bytes: bomb },
    ]);
    expect(refusedBomb.status).toBe(400);
    expect(refusedBomb.body).toMatchObject({
      code: 'image_too_large',
      error: `${storeMessages.imagesOnly}: 'bomb.png' is too large: at most 40 megapixels`,
      fields: { businessDocuments: storeMessages.imagesOnly },
    });
    expect([filesIn('store-logos'), filesIn('store-documents')]).toEqual(before);
  });
});

import { asCents, webPayBody } from '@kestrel/shared';
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { isDecline } from '../payments/card-processor.ts';
import { findAccountIdByUserName, gatewayFeesOf, holderOf } from '../accounts/accounts.service.ts';
import { ensureOperator } from '../operator/operator.service.ts';
import { createPayment, payByCard } from '../payments/payments.service.ts';
import { findStoreOfUserName, insertStore } from '../stores/stores.service.ts';
import { decryptStoreKey, encryptStoreKey, newStoreId, newStoreKey } from '../stores/store-key.ts';
import { processStoreImage, STORE_DOCUMENT_AREA, STORE_LOGO_AREA, storeImage } from '../stores/store-images.ts';

export const DEMO_STORE_NAME = "Bob's Bikes Shop";
/** The demo operator (approves stores, reviews identities) on a freshly seeded database. */
export const DEMO_OPERATOR = { email: 'ops@example.com', password: 'kestrel-demo' } as const;
/** The second demo operator: four-eyes requests (large funding, large payouts) need a different operator to approve them. */
export const DEMO_SECOND_OPERATOR = { email: 'ops2@example.com', password: 'kestrel-demo' } as const;


/** A plain square PNG in one colour: the demo store's logo and document, made here so the repository holds no binaries. */
function solidPng(size: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background } }).png().toBuffer();
}

export interface DemoStore {
  storeId: string;
  storeKey: string;
  storeName: string;
}

/**
 * Part of the demo data set (only on a freshly seeded database): bob's Approved store, whose
 * callbacks go to the development listener this server hosts, with a few payments made
 * through the real gateway code: two paid (one after a declined card), one whose only
 * attempt failed, one waiting on the checkout. Also a demo operator, who approves stores.
 */
export async function seedDemoStore(ctx: AppContext): Promise<DemoStore | null> {
  const bob = await findAccountIdByUserName(ctx.db, 'bob');
  const bobUser = bob && (await holderOf(ctx.db, bob.id));
  if (!bob || !bobUser) return null;
  // Through the same upload pipeline as a store owner's images.
  const logoImage = await processStoreImage({ fieldName: 'storeLogo', fileName: 'logo.png', bytes: await solidPng(64, { r: 13, g: 148, b: 136 }) }, 'storeLogo');
  const documentImage = await processStoreImage({ fieldName: 'businessDocuments', fileName: 'licence.png', bytes: await solidPng(32, { r: 120, g: 120, b: 120 }) }, 'businessDocuments');
  const logo = await storeImage(ctx.config.dataDir, STORE_LOGO_AREA, logoImage);
  const document = await storeImage(ctx.config.dataDir, STORE_DOCUMENT_AREA, documentImage);
  const storeId = newStoreId();
  const storeKey = newStoreKey();
  const callbackUrl = `${ctx.config.publicUrl}/dev/store-callbacks`;
  const store = await inTransaction(ctx.db, (trx) =>
    insertStore(
      trx,
      {
        storeId,
        accountId: bob.id,
        createdBy: bobUser.userId,
        storeName: DEMO_STORE_NAME,
        storeUrl: 'https://bobs-bikes.example',
        callbackUrl,
        logoStoredName: logo.storedName,
        logoMimeType: logo.mimeType,
        storeKeyEncrypted: encryptStoreKey(ctx.config.secretKey, storeKey),
        status: 'Approved',
        reviewedAt: new Date(),
      },
      [document],
    ),
  );
  // The gateway guard reads the owner's fee settings with the store; the demo calls the service directly.
  const fees = await gatewayFeesOf(ctx.db, bob.id);
  const gateway = { id: store.id, storeId, accountId: bob.id, storeName: DEMO_STORE_NAME, callbackUrl, storeKey, gatewayFeeFixedCents: asCents(fees.gatewayFeeFixedCents), gatewayFeePercent: fees.gatewayFeePercent };
  const customer = { currency: 'USD' as const, customerName: 'Carol Rider', customerEmail: 'carol@example.com', customerPhone: '+15550100003', customerAddress: '9 Pedal Road, Austin', cancelUrl: 'https://bobs-bikes.example/cart' };
  const card = (number: string) => ({ type: 'card' as const, number, expiresIn: '12/34', cvc: '123' });
  const payments: { orderId: string; productName: string; amount: number; cards: string[] }[] = [
    { orderId: 'BB-1001', productName: 'Trail helmet', amount: 89, cards: ['4242424242424242'] },
    { orderId: 'BB-1002', productName: 'Chain lube', amount: 12.5, cards: ['4000000000000002', '5555555555554444'] },
    { orderId: 'BB-1003', productName: 'Road bike tune-up', amount: 150, cards: ['4000000000009995'] },
    { orderId: 'BB-1004', productName: 'Bike bell', amount: 8.99, cards: [] },
  ];
  for (const entry of payments) {
    const { payment } = await createPayment(ctx, gateway, webPayBody.parse({ ...customer, orderId: entry.orderId, productName: entry.productName, amount: entry.amount }), undefined);
    for (const number of entry.cards) {
      // A declined test card is part of the story: its failed attempt is what the demo shows.
      await payByCard(ctx, payment.paymentId, card(number), undefined).catch((error: unknown) => {
        if (!isDecline(error)) throw error;
      });
    }
  }
  await ensureOperator(ctx.db, { email: DEMO_OPERATOR.email, password: DEMO_OPERATOR.password, firstName: 'Olive', lastName: 'Operator' });
  await ensureOperator(ctx.db, { email: DEMO_SECOND_OPERATOR.email, password: DEMO_SECOND_OPERATOR.password, firstName: 'Oscar', lastName: 'Checker' });
  return { storeId, storeKey, storeName: DEMO_STORE_NAME };
}

/**
 * bob's demo store on a database seeded earlier, with its current key: start-up prints the
 * store's credentials on every start, not only the first (a newcomer restarting the server
 * still finds them). Null when there is no such store (demo data off, or the store is gone).
 */
export async function findDemoStore(ctx: AppContext): Promise<DemoStore | null> {
  const row = await findStoreOfUserName(ctx.db, 'bob', DEMO_STORE_NAME);
  if (!row) return null;
  return { storeId: row.storeId, storeKey: decryptStoreKey(ctx.config.secretKey, row.storeKeyEncrypted), storeName: DEMO_STORE_NAME };
}

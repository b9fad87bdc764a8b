import type { Db } from '../src/db/database.ts';
import { encryptStoreKey, newStoreId, newStoreKey } from '../src/modules/stores/store-key.ts';
import type { Fixture } from './fixture.ts';

/** The table's names of the hot-store rows, by payment method. */
export const HOT_STORE_ROWS = {
  card: 'HTTP, hot store card payments (create + pay)',
  wallet: 'HTTP, hot store wallet payments (create + pay)',
  link: 'HTTP, hot store payment-link card payments',
} as const;

export interface HotStore {
  storeId: string;
  storeKey: string;
  /** A fixed-amount (5.00 USD) payment-request link of the store's owner, no use limit, paid by card. */
  pRequestURLId: string;
}

/**
 * The hot store: one Approved store owned by the fixture's hot account (written directly:
 * approving a store through the operator console is not what is measured), and a payment link
 * of the same owner, made through the API as its owner makes it.
 */
export async function createHotStore(db: Db, fixture: Fixture, secretKey: string, baseUrl: string): Promise<HotStore> {
  const storeId = newStoreId();
  const storeKey = newStoreKey();
  const owner = fixture.users[fixture.hot.owner];
  if (!owner) throw new Error('the hot account has no owner');
  await db
    .insertInto('stores')
    .values({
      storeId,
      accountId: fixture.hot.id,
      createdBy: owner.id,
      storeName: 'Bench hot store',
      storeUrl: 'https://hot-store.example',
      // Never delivered: the bench runs no callback worker; the outbox rows are still written.
      callbackUrl: 'https://hot-store.example/callback',
      logoStoredName: 'none.png',
      logoMimeType: 'image/png',
      storeKeyEncrypted: encryptStoreKey(secretKey, storeKey),
      status: 'Approved',
    })
    .execute();
  const response = await fetch(`${baseUrl}/v1/payment-request/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: owner.token },
    body: JSON.stringify({
      paymentPurpose: 'Bench link',
      tpin: fixture.tpin,
      accountNumber: fixture.hot.accountNumber,
      amount: { type: 'fixed', currency: 'USD', value: 5 },
      isUseLimit: false,
      reference: 'bench',
      paymentMethods: ['Card'],
    }),
  });
  const answer = (await response.json()) as { data?: { pRequestURLId?: string } };
  const pRequestURLId = answer.data?.pRequestURLId;
  if (!response.ok || !pRequestURLId) throw new Error(`the bench's payment link was not made: ${response.status} ${JSON.stringify(answer)}`);
  return { storeId, storeKey, pRequestURLId };
}

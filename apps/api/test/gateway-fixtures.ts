import { createAccount, createOperator, createUser, unique, type TestAccount, type TestUser } from './factories.ts';
import { api, testServer } from './harness.ts';
import { tinyPng } from './images.ts';

export { tinyPng } from './images.ts';

export interface UploadFile {
  field: string;
  name: string;
  bytes: Buffer;
  type?: string;
}

/** POST /v1/payment_gateway_store/create as multipart. */
export async function postStore(token: string | undefined, fields: Record<string, string>, files: UploadFile[]) {
  const server = await testServer();
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name);
  const response = await fetch(`${server.baseUrl}/v1/payment_gateway_store/create`, { method: 'POST', headers: token ? { authorization: token } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

export const storeImages = (): UploadFile[] => [
  { field: 'storeLogo', name: 'logo.png', bytes: tinyPng() },
  { field: 'businessDocuments', name: 'licence.png', bytes: tinyPng() },
  { field: 'businessDocuments', name: 'tax.png', bytes: tinyPng() },
];

export function storeFields(account: TestAccount, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    accountKey: account.accountNumber,
    tpin: account.tpin,
    storeName: `Shop ${unique('s')}`,
    storeURL: 'https://shop.example.test',
    callbackURL: 'https://shop.example.test/kestrel/callback',
    ...overrides,
  };
}

/** A new signed-in operator's token. */
export async function operatorToken(): Promise<string> {
  return (await createOperator()).token;
}

export interface TestStore {
  owner: TestUser;
  account: TestAccount;
  storeId: string;
  storeKey: string;
  /** The gateway headers of this store. */
  headers: Record<string, string>;
}

/** A user, an account and a store over HTTP; approved by an operator unless told otherwise. */
export async function createStore(options: { approve?: boolean; callbackURL?: string } = {}): Promise<TestStore> {
  const owner = await createUser();
  const account = await createAccount(owner);
  const created = await postStore(owner.token, storeFields(account, options.callbackURL ? { callbackURL: options.callbackURL } : {}), storeImages());
  if (created.status !== 201) throw new Error(`store create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const { storeId, storeKey } = created.body.data as { storeId: string; storeKey: string };
  if (options.approve !== false) {
    const approved = await api('POST', `/v1/operator/stores/${storeId}/approve`, { token: await operatorToken(), body: { reason: 'Documents checked' } });
    if (approved.status !== 200) throw new Error(`approve failed: ${approved.status}`);
  }
  return { owner, account, storeId, storeKey, headers: { storeId, storeKey } };
}

let orderSequence = 0;
/** A valid web-pay body with a fresh orderId. */
export function webPayBodyFor(overrides: Record<string, unknown> = {}) {
  orderSequence += 1;
  return {
    orderId: `ORD-${process.pid}-${orderSequence}-${unique('o')}`,
    currency: 'USD',
    amount: 25.5,
    customerName: 'Carol Customer',
    customerEmail: 'carol@example.test',
    customerPhone: '+15550109999',
    customerAddress: '1 Market Street, Springfield',
    productName: 'Bike bell',
    cancelUrl: 'https://shop.example.test/cart',
    valueA: 'cart-42',
    ...overrides,
  };
}

export const card = (number = '4242 4242 4242 4242', overrides: Record<string, unknown> = {}) => ({
  type: 'card',
  number,
  expiresIn: '12/34',
  cvc: '937',
  ...overrides,
});

/** Creates a payment for the store and answers its paymentId. */
export async function createPayment(store: TestStore, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor(overrides) });
  if (response.status !== 200) throw new Error(`web-pay failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.paymentId as string;
}

/** A payment link (a payment request) as the tests hold it. */
export interface TestLink {
  id: string;
  pRequestURLId: string;
}

/** A valid POST /v1/payment-request/create body on `account`: a fixed US$ 20.00 link, by card or wallet. */
export function linkBodyFor(account: Pick<TestAccount, 'accountNumber' | 'tpin'>, overrides: Record<string, unknown> = {}) {
  return {
    paymentPurpose: 'Pottery class',
    tpin: account.tpin,
    accountNumber: account.accountNumber,
    amount: { type: 'fixed', currency: 'USD', value: 20 },
    isUseLimit: false,
    reference: 'POT-1',
    paymentMethods: ['Card', 'Kestrel'],
    ...overrides,
  };
}

/** The link a POST /v1/payment-request/create answer made; an error unless it was 201. */
export function createdLink(response: { status: number; body: any }): TestLink {
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.data._id as string, pRequestURLId: response.body.data.pRequestURLId as string };
}

/** A payment of `amount` for the store, paid by card; answers its paymentId (an error unless the card payment answered 200). */
export async function paidByCard(store: TestStore, amount: number, number = '4242424242424242'): Promise<string> {
  const paymentId = await createPayment(store, { amount });
  const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card(number) });
  if (paid.status !== 200) throw new Error(`card pay failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  return paymentId;
}

/** The store's callback deliveries, oldest first. */
export async function callbackDeliveriesOf(store: Pick<TestStore, 'storeId'>) {
  const { db } = await testServer();
  return db
    .selectFrom('callbackDeliveries')
    .innerJoin('stores', 'stores.id', 'callbackDeliveries.storeId')
    .selectAll('callbackDeliveries')
    .where('stores.storeId', '=', store.storeId)
    .orderBy('callbackDeliveries.id')
    .execute();
}

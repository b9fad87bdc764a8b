import type { APIRequestContext } from '@playwright/test';
import { demo, DEMO_PASSWORD, DEMO_TPIN, expect, registerViaApi, uniqueId, uniquePhone } from './fixtures.ts';

/*
 * Wallet holders for the transfer journeys, made through the API. Money only enters the
 * system through the demo accounts, so each sender gets a small float from demo bob: demo
 * alice's US$ 5,000.00 is asserted by the accounts journey, which may run at the same time.
 */

export const TPIN = '2468';
export const OPENING_FLOAT = '40.00';

export interface Holder {
  userId: string;
  email: string;
  password: string;
  token: string;
  holderName: string;
  userName: string;
  accountNumber: string;
  accountEmail: string;
  accountPhone: string;
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** What holderViaApi may set: the account's names and type, or an existing user to add it to. */
export interface HolderOptions {
  holderName?: string;
  userName?: string;
  accountType?: 'personal' | 'business';
  /** Open the account for this holder's user (a second account) instead of signing up a new one. */
  owner?: Holder;
}

/** A verified user with a USD account (TPIN 2468, personal unless asked), made through the API. */
export async function holderViaApi(request: APIRequestContext, role: string, options: HolderOptions = {}): Promise<Holder> {
  const user = options.owner ?? (await registerViaApi(request));
  const id = uniqueId(role);
  const holder = {
    holderName: options.holderName ?? `${role === 'payee' ? 'Rowan' : 'Sasha'} Quill-${id}`,
    userName: options.userName ?? id,
    accountEmail: `${id}@wallet.example.test`,
    accountPhone: uniquePhone(),
  };
  const business = options.accountType === 'business';
  const response = await request.post('/v1/account/create', {
    headers: auth(user.token),
    data: {
      users: [{ userId: user.userId, tpin: TPIN }],
      accountHolderName: holder.holderName,
      userName: holder.userName,
      accountEmail: holder.accountEmail,
      accountPhone: holder.accountPhone,
      accountType: business ? 'business' : 'personal',
      ...(business ? { businessName: `Shop ${id}`, companyName: `Shop ${id} LLC` } : {}),
      identity: { type: 'passport', number: `E2E-${id}` },
      dateOfBirth: '1991-03-14',
      address: { street: '1 Test Street', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US' },
      balance: [{ currency: 'USD' }],
      notificationPreference: 'email',
      occupation: 'Tester',
      annualIncome: '50000',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { accountNumber } = (await response.json()).data as { accountNumber: string };
  return { email: user.email, password: user.password, token: user.token, userId: user.userId, accountNumber, ...holder };
}

export async function loginViaApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/v1/auth/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data.token as string;
}

export async function balanceOf(request: APIRequestContext, holder: Holder): Promise<number | undefined> {
  const response = await request.get(`/v1/account/${holder.accountNumber}`, { headers: auth(holder.token) });
  expect(response.status()).toBe(200);
  const { balance } = (await response.json()).data as { balance: { currency: string; amount: number }[] };
  return balance.find((entry) => entry.currency === 'USD')?.amount;
}

/** A sender holding US$ 40.00 (sent by demo bob through the API) and an empty recipient. */
export async function freshPair(request: APIRequestContext): Promise<{ sender: Holder; recipient: Holder }> {
  const [sender, recipient] = [await holderViaApi(request, 'payer'), await holderViaApi(request, 'payee')];
  await fundFromDemo(request, sender);
  return { sender, recipient };
}

/** Sends `amount` (OPENING_FLOAT unless told) from demo bob to this holder's account. */
export async function fundFromDemo(request: APIRequestContext, sender: Holder, amount = OPENING_FLOAT): Promise<void> {
  const funderToken = await loginViaApi(request, demo.bob.email, DEMO_PASSWORD);
  const funding = await request.post('/v1/account/transfer_balance', {
    headers: { ...auth(funderToken), 'Idempotency-Key': `e2e-float-${sender.userName}-${amount}` },
    data: { debitAccountKey: demo.bob.userName, creditAccountKey: sender.userName, currency: 'USD', balance: amount, tpin: DEMO_TPIN },
  });
  expect(funding.status(), await funding.text()).toBe(200);
}

/**
 * Funds a holder who must move more than demo bob's float can spare (above the step-up
 * threshold): a shopper first pays bob's demo store that much and the 2 % fee by test card
 * (server to server), then bob sends `amount` on, as fundFromDemo does. Bob ends where he
 * began (give or take a cent of rounding), so the other journeys' floats are untouched.
 */
export async function fundAboveThreshold(request: APIRequestContext, holder: Holder, amount: number): Promise<void> {
  await payDemoStoreByCard(request, Math.ceil((amount / 0.98) * 100) / 100, 'float-order', (orderId) => ({
    customerName: 'Flo Float',
    customerEmail: `${orderId}@customer.example.test`,
    customerPhone: '+15550100066',
    customerAddress: '6 Float Street',
    productName: 'Store credit',
  }));
  await fundFromDemo(request, holder, amount.toFixed(2));
}

/** The customer of a direct card payment, as a shop's server sends it. */
interface StoreCustomer {
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  customerAddress: string;
  productName: string;
}

/**
 * A paid card payment of `amount` into demo bob's seeded store (one server-to-server call,
 * `web-pay/complete/direct`, with the test card that succeeds), its order id made from
 * `orderPrefix` and its key the order id.
 */
export async function payDemoStoreByCard(request: APIRequestContext, amount: number, orderPrefix: string, customer: (orderId: string) => StoreCustomer) {
  const store = await demoStoreCredentials(request);
  const orderId = uniqueId(orderPrefix);
  const response = await request.post('/v1/payment/web-pay/complete/direct', {
    headers: { ...store, 'Idempotency-Key': orderId },
    data: {
      orderId,
      currency: 'USD',
      amount,
      ...customer(orderId),
      cancelUrl: 'https://bobs-bikes.example/cart',
      type: 'card',
      number: '4242 4242 4242 4242',
      expiresIn: '12/34',
      cvc: '123',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { paymentId } = (await response.json()).data as { paymentId: string };
  return { store, paymentId, orderId };
}


/**
 * The credentials of demo bob's seeded store, picked by its name: bob also owns stores other
 * journeys make (the example shop's, whose callback server is gone once its journey ends).
 */
export async function demoStoreCredentials(request: APIRequestContext) {
  const token = await loginViaApi(request, demo.bob.email, DEMO_PASSWORD);
  const response = await request.get(`/v1/payment_gateway_store/account/${demo.bob.userName}`, { headers: { Authorization: token } });
  expect(response.status(), await response.text()).toBe(200);
  const { stores } = (await response.json()).data as { stores: { storeId: string; storeKey: string; storeName: string; status: string }[] };
  const store = stores.find((candidate) => candidate.storeName === demo.bob.storeName && candidate.status === 'Approved');
  if (!store) throw new Error(`demo bob has no Approved store named ${demo.bob.storeName}`);
  return { storeId: store.storeId, storeKey: store.storeKey };
}

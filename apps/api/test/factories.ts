import { randomBytes, randomInt } from 'node:crypto';
import type { CreateAccountInput, RegisterBody } from '@kestrel/shared';
import { api, testServer } from './harness.ts';
import { ensureOperator } from '../src/modules/operator/operator.service.ts';
import { fundWallet } from './ledger-fixtures.ts';

let sequence = 0;
/** Unique per call, so tests never collide on e-mail, phone or user name. */
export function unique(prefix = 'u'): string {
  sequence += 1;
  return `${prefix}${process.pid}${sequence}${randomBytes(3).toString('hex')}`;
}

export function uniquePhone(): string {
  const digits = `${process.pid}${Date.now()}${Math.floor(Math.random() * 1e6)}`.replace(/\D/g, '');
  return `+1${digits.slice(-10)}`;
}

export function registerBodyFor(overrides: Partial<RegisterBody> = {}): RegisterBody {
  const id = unique();
  return {
    firstName: 'Test',
    lastName: 'User',
    email: `${id}@example.test`,
    contactNumber: uniquePhone(),
    password: 'correct horse battery',
    ...overrides,
  };
}

export interface TestUser {
  userId: string;
  token: string;
  email: string;
  password: string;
}

/** Registers a user over HTTP; verified unless told otherwise. */
export async function createUser(options: { verified?: boolean; overrides?: Partial<RegisterBody> } = {}): Promise<TestUser> {
  const body = registerBodyFor(options.overrides);
  const response = await api('POST', '/v1/user/register', { body });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  const { _id: userId, token } = response.body.data as { _id: string; token: string };
  if (options.verified !== false) {
    const { db } = await testServer();
    await db.updateTable('users').set({ isEmailVerified: true }).where('id', '=', userId).execute();
  }
  return { userId, token, email: body.email, password: body.password };
}

/** The newest mail sent to an address, from the outbox. */
export async function latestMailTo(address: string) {
  const { db } = await testServer();
  return db
    .selectFrom('mailMessages')
    .selectAll()
    .where('toAddress', '=', address)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** A complete, valid POST /v1/account/create body for this user (personal, USD), with unique fields. */
export function accountBodyFor(user: Pick<TestUser, 'userId'>, overrides: Partial<CreateAccountInput> = {}): CreateAccountInput {
  const id = unique('acc');
  // A made-up name that differs from every other test's, so name searches find exactly this holder.
  const givenName = Array.from({ length: 7 }, (_, i) => String.fromCharCode((i === 0 ? 65 : 97) + randomInt(0, 26))).join('');
  return {
    users: [{ userId: user.userId, tpin: String(randomInt(0, 10_000)).padStart(4, '0') }],
    accountHolderName: `${givenName} Tester`,
    userName: id,
    accountEmail: `${id}@example.test`,
    accountPhone: uniquePhone(),
    accountType: 'personal',
    identity: { type: 'nid', number: `NID${id}` },
    dateOfBirth: '1990-05-17',
    address: { street: '1 Test Street', city: 'Testville', state: 'TS', zipCode: '12345', country: 'US' },
    balance: [{ currency: 'USD' }],
    notificationPreference: 'email',
    occupation: 'Engineer',
    annualIncome: '50000',
    gatewayFee: { fixed: 0, percentage: 2 },
    paymentRequestFee: { fixed: 0, percentage: 2 },
    ...overrides,
  };
}

export interface TestAccount {
  accountId: string;
  accountNumber: string;
  userName: string;
  accountEmail: string;
  /** The account's 4-digit TPIN, as text. */
  tpin: string;
}

/** Opens an account for the (verified) user through POST /v1/account/create. */
export async function createAccount(user: TestUser, overrides: Partial<CreateAccountInput> = {}): Promise<TestAccount> {
  const body = accountBodyFor(user, overrides);
  const response = await api('POST', '/v1/account/create', { token: user.token, body });
  if (response.status !== 201) throw new Error(`account create failed: ${response.status} ${JSON.stringify(response.body)}`);
  const data = response.body.data as { _id: string; accountNumber: string; userName: string; accountEmail: string };
  return { accountId: data._id, accountNumber: data.accountNumber, userName: data.userName, accountEmail: data.accountEmail, tpin: body.users[0]!.tpin };
}

/** Funds a wallet through the ledger (see fundWallet). */
export async function fundAccount(accountId: string, cents: number): Promise<void> {
  await fundWallet((await testServer()).db, accountId, cents);
}

/** A verified user with one account, funded through the ledger when asked. */
export async function createHolder(fundCents = 0): Promise<TestHolder> {
  const user = await createUser();
  const account = await createAccount(user);
  if (fundCents) await fundAccount(account.accountId, fundCents);
  return { user, account };
}

export interface TestOperator {
  token: string;
  userId: string;
  email: string;
}

/** A new operator (the same path as `npm run operator:create`), signed in. */
export async function createOperator(): Promise<TestOperator> {
  const { db } = await testServer();
  const email = `${unique('ops')}@example.test`;
  const { userId } = await ensureOperator(db, { email, password: 'operator-secret' });
  const login = await api('POST', '/v1/auth/login', { body: { email, password: 'operator-secret' } });
  if (login.status !== 200) throw new Error(`operator login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.data.token as string, userId, email };
}

/**
 * Lets an account move up to `cents` a day on the TPIN alone (step-up's threshold, README
 * "Step-up for large movements"): for a test about something else that moves more than the
 * default US$ 1,000.00.
 */
export async function raiseStepUpThreshold(accountId: string, cents = 1_000_000_000): Promise<void> {
  await (await testServer()).db.updateTable('accounts').set({ stepUpThresholdCents: cents }).where('id', '=', accountId).execute();
}

/** An account's holder: the signed-in user and the account (what `createHolder` answers). */
export interface TestHolder {
  user: TestUser;
  account: TestAccount;
}

/** What a test may add to a movement it sends as a holder. */
export interface MoveOptions {
  /** The Idempotency-Key header, when the test sends one. */
  key?: string;
  /** The step-up code (`stepUpCode`), when the test sends one. */
  code?: string;
  /** A TPIN other than the account's, as sent (text or a number); the account's own is sent as a number. */
  tpin?: string | number;
}

const moveExtras = (options: MoveOptions) => ({
  ...(options.tpin === undefined ? {} : { tpin: options.tpin }),
  ...(options.code === undefined ? {} : { stepUpCode: options.code }),
});

/** POST /v1/account/transfer_balance: `amount` (major units, as sent) from the holder's account to `to`, by the holder. */
export function transferAs(from: TestHolder, to: Pick<TestAccount, 'userName'>, amount: number | string, options: MoveOptions = {}) {
  return api('POST', '/v1/account/transfer_balance', {
    token: from.user.token,
    headers: options.key ? { 'idempotency-key': options.key } : {},
    body: {
      userId: from.user.userId,
      debitAccountKey: from.account.userName,
      creditAccountKey: to.userName,
      currency: 'USD',
      balance: amount,
      tpin: Number(from.account.tpin),
      ...moveExtras(options),
    },
  });
}

/**
 * A valid bank withdrawal body to a US bank (021000021 is a real ABA routing number with a valid
 * check digit); `overrides` for another bank or a field under test.
 */
export function withdrawalBodyFor(h: TestHolder, amount: number | string, overrides: Record<string, unknown> = {}) {
  return {
    accountNumber: h.account.accountNumber,
    userId: h.user.userId,
    tpin: Number(h.account.tpin),
    country: 'United States',
    bankName: 'First Test Bank',
    branchName: '',
    accountType: 'checking',
    bankAccountNumber: '000123456789',
    routingNumber: '021000021',
    accountHolderName: 'Test Holder',
    currency: 'USD',
    amount,
    ...overrides,
  };
}

/** The fields of a withdrawal to a bank in Bangladesh (a branch name, no account type), over `withdrawalBodyFor`'s. */
export const bangladeshBank = { country: 'Bangladesh', bankName: 'Dhaka Test Bank', branchName: 'Gulshan', routingNumber: '123456789' };

/** POST /v1/bank-withdraw/create: `amount` (major units, as sent) from the holder's account, by the holder; `body` overrides fields. */
export function withdrawAs(h: TestHolder, amount: number | string, options: MoveOptions & { body?: Record<string, unknown> } = {}) {
  return api('POST', '/v1/bank-withdraw/create', {
    token: h.user.token,
    headers: options.key ? { 'idempotency-key': options.key } : {},
    body: withdrawalBodyFor(h, amount, { ...moveExtras(options), ...options.body }),
  });
}

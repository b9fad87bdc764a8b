import { randomBytes } from 'node:crypto';
import type { RegisterBody } from '@kestrel/shared';
import { api, testServer } from './harness.ts';

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

import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createUser, unique } from '../../../test/factories.ts';
import { ensureOperator } from './operator.service.ts';

describe('operator:create', () => {
  it('creates a verified operator who can sign in, and is idempotent', async () => {
    const { db } = await testServer();
    const email = `${unique('ops')}@example.test`;
    const first = await ensureOperator(db, { email: email.toUpperCase(), password: 'operator-secret' });
    expect(first.outcome).toBe('created');
    const user = await db.selectFrom('users').select(['isOperator', 'isEmailVerified']).where('id', '=', first.userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ isOperator: true, isEmailVerified: true });
    const login = await api('POST', '/v1/auth/login', { body: { email, password: 'operator-secret' } });
    expect(login.status).toBe(200);
    expect(await ensureOperator(db, { email })).toEqual({ outcome: 'already_operator', userId: first.userId });
  });

  it('marks an existing user as operator without touching the password', async () => {
    const { db } = await testServer();
    const existing = await createUser();
    expect((await ensureOperator(db, { email: existing.email, password: 'ignored-password' })).outcome).toBe('promoted');
    const login = await api('POST', '/v1/auth/login', { body: { email: existing.email, password: existing.password } });
    expect(login.status).toBe(200);
  });

  it('needs a password of 8 characters for a new operator', async () => {
    const { db } = await testServer();
    await expect(ensureOperator(db, { email: `${unique('ops')}@example.test`, password: 'short' })).rejects.toThrow(/at least 8/);
  });
});

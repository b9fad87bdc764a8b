import { messages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { accountBodyFor, createAccount, createUser, fundAccount } from '../../../test/factories.ts';
import { accountNumberValid } from './account-number.ts';

describe('POST /v1/account/create', () => {
  it('opens the account and answers the spec shape', async () => {
    const user = await createUser();
    const body = accountBodyFor(user);
    const response = await api('POST', '/v1/account/create', { token: user.token, body });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: 'success',
      message: messages.account.created,
      data: { _id: expect.any(String), accountNumber: expect.stringMatching(/^\d{9}$/), accountEmail: body.accountEmail, userName: body.userName },
    });
    expect(accountNumberValid(response.body.data.accountNumber)).toBe(true);

    const profile = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(profile.body.data.isAccountHolder).toBe(true);
    expect(profile.body.data.accounts.map((a: { _id: string }) => a._id)).toEqual([response.body.data._id]);
  });
});

describe('factories', () => {
  it('createAccount and fundAccount give an account with that balance', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    await fundAccount(account.accountId, 1250);
    const response = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body.data.balance).toEqual([{ currency: 'USD', amount: 12.5 }]);
    const { db } = await testServer();
    const row = await db.selectFrom('accounts').select('tpinHash').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(row.tpinHash.startsWith('$argon2id$')).toBe(true);
  });
});

import { asCents } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/harness.ts';
import { createAccount, createUser, fundAccount } from '../../../test/factories.ts';

type Group = { _id: string; transactions: { _id: string; amount: number }[] };
const flat = (groups: Group[]) => groups.flatMap((group) => group.transactions);

describe('GET /v1/transaction/account/:accountNumber, paged', () => {
  it('pages with limit and cursor: every transaction once, newest first, then an empty page', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    for (let cents = 1; cents <= 5; cents++) await fundAccount(account.accountId, asCents(cents * 100));
    const all = await api('GET', `/v1/transaction/account/${account.accountNumber}`, { token: user.token });
    expect(all.status).toBe(200);
    const everything = flat(all.body.data);
    expect(everything.map((t) => t.amount)).toEqual([5, 4, 3, 2, 1]);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const response = await api('GET', `/v1/transaction/account/${account.accountNumber}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: user.token });
      expect(response.status).toBe(200);
      const items = flat(response.body.data);
      expect(items.length).toBe(page < 2 ? 2 : 1);
      seen.push(...items.map((t) => t._id));
      cursor = items.at(-1)?._id;
    }
    expect(seen).toEqual(everything.map((t) => t._id));
    const end = await api('GET', `/v1/transaction/account/${account.accountNumber}?limit=2&cursor=${cursor}`, { token: user.token });
    expect(end.status).toBe(200);
    expect(end.body.data).toEqual([]);
  });

  it('an own account without transactions is an empty list; anyone else\'s is 404 whatever the cursor', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const empty = await api('GET', `/v1/transaction/account/${account.accountNumber}`, { token: user.token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    const stranger = await createUser();
    await fundAccount(account.accountId, asCents(100));
    for (const query of ['', '?cursor=999999999', '?limit=1']) {
      const refused = await api('GET', `/v1/transaction/account/${account.accountNumber}${query}`, { token: stranger.token });
      expect(refused.status).toBe(404);
    }
  });
});

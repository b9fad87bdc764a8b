import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../test/harness.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { verifySecret } from '../../security/passwords.ts';
import { walletBalances } from '../ledger/ledger.service.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { accountNumberValid } from '../accounts/account-number.ts';
import { tpinMac } from '../accounts/tpin.ts';
import { DEMO_PASSWORD, DEMO_TPIN, seedDemo } from './seed-demo.ts';

// A fresh in-memory database of its own: the seed only ever runs on an empty one.
const handle = freshDatabase();

describe('demo data set', () => {
  it('creates alice and bob, verified, funded through the ledger; a second run changes nothing', async () => {
    const logins = await seedDemo(handle.db);
    expect(logins?.map((login) => [login.email, login.userName, login.balance, login.tpin, login.password])).toEqual([
      ['alice@example.com', 'alice', 'US$ 5,000.00', '4826', 'kestrel-demo'],
      ['bob@example.com', 'bob', 'US$ 2,500.00', '4826', 'kestrel-demo'],
    ]);
    const { db } = handle;
    const accounts = await db
      .selectFrom('accounts')
      .innerJoin('accountUsers', 'accountUsers.accountId', 'accounts.id')
      .innerJoin('users', 'users.id', 'accountUsers.userId')
      .select(['accounts.id', 'accounts.accountNumber', 'accounts.accountType', 'accounts.accountHolderName', 'accounts.businessName', 'accounts.userName', 'accounts.tpinHash'])
      .select(['users.email', 'users.isEmailVerified', 'users.passwordHash'])
      .orderBy('accounts.userName')
      .execute();
    expect(accounts.map((a) => [a.email, a.userName, a.accountType, a.accountHolderName, a.businessName, a.isEmailVerified])).toEqual([
      ['alice@example.com', 'alice', 'personal', 'Alice Carter', null, true],
      ['bob@example.com', 'bob', 'business', 'Bob Nguyen', "Bob's Bikes", true],
    ]);
    for (const account of accounts) {
      expect(accountNumberValid(account.accountNumber)).toBe(true);
      expect(await verifySecret(account.passwordHash, DEMO_PASSWORD)).toBe(true);
      expect(await verifySecret(account.tpinHash, DEMO_TPIN)).toBe(true);
    }
    expect(await walletBalances(db, accounts[0]!.id)).toEqual([{ currency: 'USD', amountCents: 500000 }]);
    expect(await walletBalances(db, accounts[1]!.id)).toEqual([{ currency: 'USD', amountCents: 250000 }]);
    const funding = await db.selectFrom('ledgerTransactions').select(['kind', 'amountCents']).orderBy('id').execute();
    expect(funding).toEqual([
      { kind: 'funding', amountCents: 500000 },
      { kind: 'funding', amountCents: 250000 },
    ]);
    expect((await verifyLedger(db)).problems).toEqual([]);

    expect(await seedDemo(db)).toBeNull();
    expect(await db.selectFrom('users').select('id').execute()).toHaveLength(2);
    expect(await walletBalances(db, accounts[0]!.id)).toEqual([{ currency: 'USD', amountCents: 500000 }]);
    expect(await db.selectFrom('ledgerTransactions').select('id').execute()).toHaveLength(2);
  });
});

describe('demo data set with the server secret (as the server seeds it)', () => {
  it('stores the demo TPINs as the keyed hash over each user name', async () => {
    const own = await openDatabase({});
    try {
      await migrate(own.db);
      const secret = 'a demo server secret of at least thirty-two characters';
      expect(await seedDemo(own.db, secret)).not.toBeNull();
      const accounts = await own.db.selectFrom('accounts').select(['userName', 'tpinHash']).orderBy('userName').execute();
      expect(accounts).toEqual([
        { userName: 'alice', tpinHash: tpinMac(secret, 'alice', DEMO_TPIN) },
        { userName: 'bob', tpinHash: tpinMac(secret, 'bob', DEMO_TPIN) },
      ]);
    } finally {
      await own.close();
    }
  });
});

import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/database.ts';
import type { AmountCents } from '@kestrel/shared';
import { inTransaction } from '../src/db/transaction.ts';
import { openWalletLedgerAccount, postTransaction, SYSTEM_ACCOUNTS } from '../src/modules/ledger/ledger.service.ts';

/**
 * A bare wallet account row for ledger-level tests that need no user or HTTP around it.
 * (Feature tests open accounts through POST /v1/account/create instead.)
 */
export async function insertBareAccount(db: Db): Promise<string> {
  const tag = randomBytes(8).toString('hex');
  const row = await db
    .insertInto('accounts')
    .values({
      accountNumber: `T${tag}`,
      accountType: 'personal',
      accountHolderName: `Ledger Test ${tag}`,
      businessName: null,
      companyName: null,
      userName: `ledger${tag}`,
      accountEmail: `ledger-${tag}@example.test`,
      accountPhone: `+0${tag}`,
      identityType: 'nid',
      identityNumber: `L${tag}`,
      dateOfBirth: '1990-01-01',
      street: '1 Test Street',
      city: 'Testville',
      state: 'TS',
      zipCode: '00000',
      country: 'US',
      notificationPreference: 'email',
      occupation: 'Tester',
      annualIncome: '0',
      tpinHash: 'unused',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await openWalletLedgerAccount(db, row.id, 'USD');
  return row.id;
}

/** Puts money into a wallet the way real money enters Kestrel: a ledger transaction from the funding system account. */
export function fundWallet(db: Db, accountId: string, cents: AmountCents) {
  return inTransaction(db, (trx) =>
    postTransaction(trx, {
      kind: 'funding',
      transactionFor: 'Test funding',
      currency: 'USD',
      amountCents: cents,
      postings: [
        { party: { system: SYSTEM_ACCOUNTS.funding }, amountCents: -cents },
        { party: { walletAccountId: accountId }, amountCents: cents },
      ],
    }),
  );
}

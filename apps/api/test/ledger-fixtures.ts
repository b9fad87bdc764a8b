import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { asCents, negateCents } from '@kestrel/shared';
import { inTransaction } from '../src/db/transaction.ts';
import { testServer } from './harness.ts';
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
export function fundWallet(db: Db, accountId: string, cents: number) {
  const amount = asCents(cents);
  return inTransaction(db, (trx) =>
    postTransaction(trx, {
      kind: 'funding',
      transactionFor: 'Test funding',
      currency: 'USD',
      amountCents: amount,
      postings: [
        { party: { system: SYSTEM_ACCOUNTS.funding }, amountCents: negateCents(amount) },
        { party: { walletAccountId: accountId }, amountCents: amount },
      ],
    }),
  );
}

/** A wallet-to-wallet transfer straight through the ledger (no HTTP, no TPIN), with a fee to revenue when `feeCents` is given. */
export function moveBetweenWallets(db: Db, from: string, to: string, cents: number, feeCents = 0) {
  return inTransaction(db, (trx) =>
    postTransaction(trx, {
      kind: 'transfer',
      transactionFor: 'Test transfer',
      currency: 'USD',
      amountCents: asCents(cents),
      feeCents: asCents(feeCents),
      postings: [
        { party: { walletAccountId: from }, amountCents: asCents(-(cents + feeCents)) },
        { party: { walletAccountId: to }, amountCents: asCents(cents) },
        ...(feeCents > 0 ? [{ party: { system: SYSTEM_ACCOUNTS.feeRevenue }, amountCents: asCents(feeCents) }] : []),
      ],
    }),
  );
}

/** The postings of one ledger transaction, as [system code or wallet account id, cents], sorted. */
export async function postingsOf(tnxId: string): Promise<[string, number][]> {
  const { db } = await testServer();
  const rows = await db
    .selectFrom('ledgerPostings')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'ledgerPostings.ledgerTransactionId')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .select(['ledgerPostings.amountCents', 'ledgerAccounts.systemCode', 'ledgerAccounts.accountId'])
    .where('ledgerTransactions.transactionId', '=', tnxId)
    .execute();
  return rows.map((row): [string, number] => [row.systemCode ?? row.accountId ?? '?', row.amountCents]).sort();
}

/** A wallet's balance as the API shows it (the wallet_balances view: folded part plus pending credits). */
export async function walletCents(accountId: string): Promise<number> {
  const { db } = await testServer();
  const row = await db.selectFrom('walletBalances').select('balanceCents').where('accountId', '=', accountId).where('currency', '=', 'USD').executeTakeFirst();
  return Number(row?.balanceCents ?? 0);
}

/**
 * A system account's postings that concern one owner: of the ledger transactions that touch the
 * owner's wallet, or settle one of the owner's refunds. Other tests (on PostgreSQL, other files
 * share the database) move the same system accounts at the same time; this is this owner's part.
 */
export async function systemCents(code: string, ownerAccountId: string): Promise<number> {
  const { db } = await testServer();
  const { rows } = await sql<{ total: string | number | null }>`
    SELECT COALESCE(SUM(p.amount_cents), 0)::bigint AS total FROM ledger_postings p
    JOIN ledger_accounts la ON la.id = p.ledger_account_id
    JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
    WHERE la.system_code = ${code} AND la.currency = 'USD'
      AND (EXISTS (SELECT 1 FROM ledger_postings o JOIN ledger_accounts ola ON ola.id = o.ledger_account_id
                    WHERE o.ledger_transaction_id = t.id AND ola.account_id = ${ownerAccountId})
           OR t.metadata->>'refundId' IN (SELECT r.id::text FROM refunds r WHERE r.account_id = ${ownerAccountId}))`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

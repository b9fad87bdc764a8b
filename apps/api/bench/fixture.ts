import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { luhnCheckDigit } from '../src/modules/accounts/account-number.ts';
import { hashSecret } from '../src/security/passwords.ts';
import { tpinMac } from '../src/modules/accounts/tpin.ts';
import { createSession } from '../src/modules/sessions/sessions.repository.ts';
import { newTransactionId, SYSTEM_ACCOUNTS } from '../src/modules/ledger/ledger.service.ts';

/**
 * The bench's data set, written with bulk SQL because opening 10,000 accounts through the
 * API would take longer than the bench itself. Every account has the same TPIN, stored as the
 * product stores it: a keyed hash of each account's user name (tpinMac with the server's
 * secret), so a first ("cold") transfer costs what any other does. Money enters the way it
 * does in the product: each account's opening balance is a balanced ledger transaction
 * against the funding system account, and the cached balance is written in the same
 * database transaction as its postings, so verifyLedger holds from the first commit.
 *
 * One funding transaction per account (as the test factory fundAccount does) rather than
 * one transaction with 10,001 postings: the deferred "postings balance" trigger sums the
 * transaction's postings once per inserted posting, which is quadratic in the size of one
 * transaction, and GET /v1/transaction/account lists every party of a transaction, so a
 * 10,001-party transaction would sit in every account's history.
 */

export interface BenchAccount {
  id: string;
  userName: string;
  accountNumber: string;
  ledgerAccountId: number;
  /** Index of the client user that owns it. */
  owner: number;
}

export interface BenchUser {
  id: string;
  token: string;
  accounts: BenchAccount[];
}

export interface Fixture {
  users: BenchUser[];
  accounts: BenchAccount[];
  tpin: number;
  openingCents: number;
  /** The sum of all wallet balances; transfers never change it. */
  totalCents: number;
  /** An account with exactly `historyTransactions` ledger transactions (its funding, then transfers out). */
  history: BenchAccount;
  historyTransactions: number;
  /** The many-senders-to-one recipient. */
  hot: BenchAccount;
}

export interface FixtureOptions {
  accounts: number;
  users: number;
  openingCents: number;
  tpin: number;
  historyTransactions: number;
  /** The server's SECRET_KEY: the TPINs' keyed hashes are made with it. */
  secretKey: string;
}

const CHUNK = 2_000;

export async function createFixture(db: Db, options: FixtureOptions): Promise<Fixture> {
  const tpinHash = await hashSecret(String(options.tpin));

  // Client users. Nobody signs in with a password here (sessions are made directly); one
  // argon2 hash of the TPIN stands in for every password hash.
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: options.users }, (_, i) => ({
        firstName: 'Bench',
        lastName: `Client ${i}`,
        email: `bench-client-${i}@example.test`,
        contactNumber: `+1444${String(i).padStart(7, '0')}`,
        passwordHash: tpinHash,
        isEmailVerified: true,
      })),
    )
    .returning('id')
    .execute();
  const userIds = users.map((u) => u.id);

  const numbers = await sql<{ value: string }>`SELECT nextval('account_number_seq')::text AS value FROM generate_series(1, ${options.accounts})`.execute(db);
  const accountNumbers = numbers.rows.map(({ value }) => `${value}${luhnCheckDigit(value)}`);

  await sql`INSERT INTO ledger_accounts (account_id, system_code, currency) VALUES (NULL, ${SYSTEM_ACCOUNTS.funding}, 'USD')
    ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING`.execute(db);
  const funding = await db
    .selectFrom('ledgerAccounts')
    .select('id')
    .where('systemCode', '=', SYSTEM_ACCOUNTS.funding)
    .where('currency', '=', 'USD')
    .executeTakeFirstOrThrow();

  const accounts: BenchAccount[] = [];
  for (let start = 0; start < options.accounts; start += CHUNK) {
    const indexes = Array.from({ length: Math.min(CHUNK, options.accounts - start) }, (_, k) => start + k);
    const chunk = await inTransaction(db, async (trx) => {
      const inserted = await sql<{ id: string; userName: string; accountNumber: string }>`
        INSERT INTO accounts (account_number, account_type, account_holder_name, user_name, account_email, account_phone,
          identity_type, identity_number, date_of_birth, street, city, state, zip_code, country,
          notification_preference, occupation, annual_income, tpin_hash, step_up_threshold_cents)
        SELECT n, 'personal', 'Bench Holder ' || i, 'bench' || i, 'bench' || i || '@example.test', '+1555' || lpad(i::text, 7, '0'),
          'nid', 'BENCH' || i, DATE '1990-01-01', '1 Bench Street', 'Benchville', 'BS', '12345', 'US',
          -- The load moves far more than US$ 1,000.00 a day per account on the TPIN alone: no step-up here (README, Step-up).
          'email', 'Tester', '50000', ${tpinHash}, 1000000000000
        FROM unnest(${indexes}::int[], ${indexes.map((i) => accountNumbers[i])}::text[]) AS t(i, n)
        RETURNING id, user_name, account_number`.execute(trx);
      // The keyed hash covers the user name as stored, as the product makes it.
      await sql`UPDATE accounts a SET tpin_hash = t.h
        FROM unnest(${inserted.rows.map((r) => r.id)}::uuid[], ${inserted.rows.map((r) => tpinMac(options.secretKey, r.userName, options.tpin))}::text[]) AS t(id, h)
        WHERE a.id = t.id`.execute(trx);
      const byUserName = new Map(inserted.rows.map((row) => [row.userName, row]));
      const rows = indexes.map((i) => {
        const row = byUserName.get(`bench${i}`);
        if (!row) throw new Error(`account bench${i} was not inserted`);
        return { ...row, owner: i % options.users };
      });
      await sql`INSERT INTO account_users (account_id, user_id, role)
        SELECT a, u, 'owner' FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => userIds[r.owner])}::uuid[]) AS t(a, u)`.execute(trx);
      const ledger = await sql<{ id: number; accountId: string }>`
        INSERT INTO ledger_accounts (account_id, currency, balance_cents)
        SELECT a, 'USD', ${options.openingCents}::bigint FROM unnest(${rows.map((r) => r.id)}::uuid[]) AS t(a)
        RETURNING id, account_id`.execute(trx);
      const ledgerIdOf = new Map(ledger.rows.map((row) => [row.accountId, Number(row.id)]));
      const transactionIds = rows.map(() => newTransactionId());
      const transactions = await sql<{ id: number; transactionId: string }>`
        INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, created_at)
        SELECT x, 'funding', 'Opening balance', 'USD', ${options.openingCents}::bigint, now() - interval '120 days'
        FROM unnest(${transactionIds}::text[]) AS t(x)
        RETURNING id, transaction_id`.execute(trx);
      const transactionIdOf = new Map(transactions.rows.map((row) => [row.transactionId, Number(row.id)]));
      const postingTx: number[] = [];
      const postingAccount: number[] = [];
      const postingAmount: number[] = [];
      rows.forEach((row, k) => {
        const tx = transactionIdOf.get(transactionIds[k] ?? '');
        const ledgerId = ledgerIdOf.get(row.id);
        if (tx === undefined || ledgerId === undefined) throw new Error('fixture bookkeeping lost a row');
        postingTx.push(tx, tx);
        postingAccount.push(ledgerId, funding.id);
        postingAmount.push(options.openingCents, -options.openingCents);
      });
      await sql`INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents, created_at)
        SELECT t, a, c, now() - interval '120 days' FROM unnest(${postingTx}::bigint[], ${postingAccount}::bigint[], ${postingAmount}::bigint[]) AS p(t, a, c)`.execute(trx);
      return rows.map((row) => ({ id: row.id, userName: row.userName, accountNumber: row.accountNumber, owner: row.owner, ledgerAccountId: ledgerIdOf.get(row.id) ?? 0 }));
    });
    accounts.push(...chunk);
  }

  const benchUsers: BenchUser[] = [];
  for (const [index, id] of userIds.entries()) {
    const token = await createSession(db, id, '127.0.0.1', 'kestrel-bench');
    benchUsers.push({ id, token, accounts: accounts.filter((a) => a.owner === index) });
  }

  // The last two accounts are never senders: the hot recipient and the history account.
  const hot = accounts[accounts.length - 1];
  const history = accounts[accounts.length - 2];
  if (!hot || !history) throw new Error('need at least two accounts');
  await writeHistory(db, history, accounts.slice(0, options.historyTransactions - 1), userIds[history.owner] ?? '');
  // Planner statistics for the freshly loaded tables, as autovacuum would gather within a
  // minute of a bulk load; without them the first plans are seq scans sized for empty tables.
  await sql`ANALYZE`.execute(db);

  return {
    users: benchUsers,
    accounts,
    tpin: options.tpin,
    openingCents: options.openingCents,
    totalCents: options.openingCents * options.accounts,
    history,
    historyTransactions: options.historyTransactions,
    hot,
  };
}

/**
 * Transfers out of `from` to each of `to` (1 to 100 cents), written in bulk the way the
 * ledger writes a transfer (ledger transaction, two postings, transfers row, both cached
 * balances), spread over the past weeks so the list has many day groups.
 */
async function writeHistory(db: Db, from: BenchAccount, to: BenchAccount[], createdBy: string): Promise<void> {
  const n = to.length;
  const amounts = to.map((_, k) => (k % 100) + 1);
  const transactionIds = to.map(() => newTransactionId());
  await inTransaction(db, async (trx) => {
    const inserted = await sql<{ id: number; transactionId: string }>`
      INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, created_by, metadata, created_at)
      SELECT x, 'transfer', 'Fund Transfer', 'USD', c, ${createdBy}::uuid, '{}'::jsonb, now() - (${n} - k) * interval '2 hours'
      FROM unnest(${transactionIds}::text[], ${amounts}::bigint[]) WITH ORDINALITY AS t(x, c, k)
      RETURNING id, transaction_id`.execute(trx);
    const idOf = new Map(inserted.rows.map((row) => [row.transactionId, Number(row.id)]));
    const txIds = transactionIds.map((x) => idOf.get(x) ?? 0);
    await sql`INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
      SELECT t, a, c FROM unnest(
        ${[...txIds, ...txIds]}::bigint[],
        ${[...to.map(() => from.ledgerAccountId), ...to.map((r) => r.ledgerAccountId)]}::bigint[],
        ${[...amounts.map((c) => -c), ...amounts]}::bigint[]) AS p(t, a, c)`.execute(trx);
    await sql`INSERT INTO transfers (ledger_transaction_id, from_account_id, to_account_id, currency, amount_cents, created_by)
      SELECT t, ${from.id}::uuid, r, 'USD', c, ${createdBy}::uuid
      FROM unnest(${txIds}::bigint[], ${to.map((r) => r.id)}::uuid[], ${amounts}::bigint[]) AS p(t, r, c)`.execute(trx);
    const total = amounts.reduce((sum, c) => sum + c, 0);
    await sql`UPDATE ledger_accounts SET balance_cents = balance_cents - ${total}::bigint WHERE id = ${from.ledgerAccountId}`.execute(trx);
    await sql`UPDATE ledger_accounts l SET balance_cents = l.balance_cents + d.c
      FROM unnest(${to.map((r) => r.ledgerAccountId)}::bigint[], ${amounts}::bigint[]) AS d(id, c) WHERE l.id = d.id`.execute(trx);
  });
}

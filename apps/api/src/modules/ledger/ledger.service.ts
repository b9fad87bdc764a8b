import { randomBytes } from 'node:crypto';
import { asCents, MAX_AMOUNT_CENTS, type Cents, type Currency } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { Refusal } from '../../http/refusals.ts';

// The dashboard's chart reads the wallets' postings through this (lint keeps other modules out of the repository).
export { recentPostingsOf, walletBalanceIn, walletBalancesByAccountNumber, walletBalancesOf, walletDays, type WalletDayRow } from './ledger.repository.ts';

/**
 * The ledger: the only code that writes postings or changes a balance.
 *
 * Every movement of money is one ledger transaction whose postings sum to zero (a database
 * trigger checks this again at commit). A wallet account's balance changes in the same
 * database transaction as its postings, through the database functions ledger_debit (takes
 * the wallet's row lock, never below zero) and ledger_credit (never waits: a credit to a
 * wallet someone else holds is appended as a pending credit, folded in by the next holder),
 * and is read through ledger_balance or the wallet_balances view (see db/functions). System
 * accounts (the other side of money entering or leaving Kestrel) keep no balance on their
 * row, so they are never a hot row either: their balance is the sum of their postings.
 */

export const SYSTEM_ACCOUNTS = {
  /** Money entering Kestrel from outside (demo funding, operator top-ups). */
  funding: 'funding',
  /** Card payments captured but not yet settled by the card network. */
  cardClearing: 'card_clearing',
  /** Fees Kestrel has earned. */
  feeRevenue: 'fee_revenue',
  /** Bank withdrawals requested and on their way out. */
  payoutsInFlight: 'payouts_in_flight',
  /** Card refunds taken from the owner and not yet confirmed by the card processor (refund_post / refund_settle). */
  refundsInFlight: 'refunds_in_flight',
} as const;
export type SystemAccountCode = (typeof SYSTEM_ACCOUNTS)[keyof typeof SYSTEM_ACCOUNTS];

export type LedgerParty = { walletAccountId: string } | { system: SystemAccountCode };

export interface Posting {
  party: LedgerParty;
  /** Positive adds to the party's balance, negative takes from it (`negateCents`). Only `Cents`: a plain number does not type-check. */
  amountCents: Cents;
}

export interface LedgerTransactionInput {
  kind: string;
  /** The purpose shown in transaction lists (the spec's transactionFor). */
  transactionFor: string;
  currency: Currency;
  /** The headline amount of the movement (what the sender sent), in cents. */
  amountCents: Cents;
  feeCents?: Cents;
  createdBy?: string | null;
  metadata?: Record<string, unknown>;
  postings: Posting[];
}

export interface PostedTransaction {
  id: number;
  transactionId: string;
  createdAt: Date;
}

export class InsufficientFundsError extends Refusal {
  constructor() {
    super('insufficient_balance');
  }
}

/** Crockford's base32: 32 symbols, no I, L, O or U, so an id read aloud or retyped stays unambiguous. */
export const TRANSACTION_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TRANSACTION_ID_CHARS = 16;

/**
 * Public transaction ids: "TNX" and 16 characters of a fixed 32-symbol alphabet, i.e. 80
 * random bits (10 bytes, 5 bits per character), always exactly 19 characters long.
 */
export function newTransactionId(): string {
  const bytes = randomBytes((TRANSACTION_ID_CHARS * 5) / 8);
  let bits = 0;
  let buffered = 0;
  let id = 'TNX';
  for (const byte of bytes) {
    buffered = (buffered << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      id += TRANSACTION_ID_ALPHABET[(buffered >> bits) & 31];
    }
    buffered &= (1 << bits) - 1;
  }
  return id;
}

function assertBalanced(input: LedgerTransactionInput): void {
  if (input.postings.length < 2) throw new Error('a ledger transaction needs at least two postings');
  let sum = 0;
  for (const posting of input.postings) {
    if (!Number.isSafeInteger(posting.amountCents) || posting.amountCents === 0 || Math.abs(posting.amountCents) > MAX_AMOUNT_CENTS * 10) {
      throw new Error(`invalid posting amount ${posting.amountCents}`);
    }
    sum += posting.amountCents;
  }
  if (sum !== 0) throw new Error(`postings do not balance: sum ${sum}`);
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new Error('amount must be positive cents');
}

/** Opens the wallet's ledger account for a currency (idempotent). */
export async function openWalletLedgerAccount(db: Db | Trx, walletAccountId: string, currency: Currency): Promise<void> {
  await db
    .insertInto('ledgerAccounts')
    .values({ accountId: walletAccountId, systemCode: null, currency })
    .onConflict((oc) => oc.columns(['accountId', 'currency']).where('accountId', 'is not', null).doNothing())
    .execute();
}

async function systemLedgerAccountId(trx: Trx, code: SystemAccountCode, currency: Currency): Promise<number> {
  const existing = await trx
    .selectFrom('ledgerAccounts')
    .select('id')
    .where('systemCode', '=', code)
    .where('currency', '=', currency)
    .executeTakeFirst();
  if (existing) return existing.id;
  await trx
    .insertInto('ledgerAccounts')
    .values({ accountId: null, systemCode: code, currency })
    .onConflict((oc) => oc.columns(['systemCode', 'currency']).where('systemCode', 'is not', null).doNothing())
    .execute();
  const created = await trx
    .selectFrom('ledgerAccounts')
    .select('id')
    .where('systemCode', '=', code)
    .where('currency', '=', currency)
    .executeTakeFirstOrThrow();
  return created.id;
}

async function walletLedgerAccountId(trx: Trx, walletAccountId: string, currency: Currency): Promise<number> {
  const row = await trx
    .selectFrom('ledgerAccounts')
    .select('id')
    .where('accountId', '=', walletAccountId)
    .where('currency', '=', currency)
    .executeTakeFirst();
  if (row) return row.id;
  await openWalletLedgerAccount(trx, walletAccountId, currency);
  return (
    await trx
      .selectFrom('ledgerAccounts')
      .select('id')
      .where('accountId', '=', walletAccountId)
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow()
  ).id;
}

export interface PostOptions {
  /**
   * Writes the caller's own rows that belong with this movement (a transfer row, activities,
   * an audit entry). It runs after the ledger transaction and its postings are written and
   * before any balance is touched; see postTransaction.
   */
  beforeBalances?: (posted: PostedTransaction) => Promise<void>;
}

export interface PostedMovement extends PostedTransaction {
  /** Each wallet account's balance in the transaction's currency after this movement, by wallet account id. */
  balancesAfter: Map<string, Cents>;
}

type PartyKey = string;
const partyKey = (party: LedgerParty): PartyKey => ('walletAccountId' in party ? `wallet:${party.walletAccountId}` : `system:${party.system}`);

/**
 * Writes the ledger transaction and, in the same statement, a posting for every party whose
 * ledger account in this currency exists (the ledger account is found by the insert itself,
 * which saves a lookup per party). Answers the transaction and the ledger account of each
 * party that got its posting.
 */
async function insertTransactionAndPostings(trx: Trx, input: LedgerTransactionInput) {
  const walletIds = input.postings.map(({ party }) => ('walletAccountId' in party ? party.walletAccountId : null));
  const systemCodes = input.postings.map(({ party }) => ('system' in party ? party.system : null));
  const amounts = input.postings.map((posting) => posting.amountCents);
  const { rows } = await sql<{ id: number; transactionId: string; createdAt: Date; ledgerAccountId: number | null; accountId: string | null; systemCode: string | null }>`
    WITH t AS (
      INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
      VALUES (${newTransactionId()}, ${input.kind}, ${input.transactionFor}, ${input.currency}, ${input.amountCents}, ${input.feeCents ?? 0},
              ${input.createdBy ?? null}, ${JSON.stringify(input.metadata ?? {})}::jsonb)
      RETURNING id, transaction_id, created_at
    ), p AS (
      INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
      SELECT t.id, la.id, v.amount_cents
      FROM t
      CROSS JOIN unnest(${walletIds}::uuid[], ${systemCodes}::text[], ${amounts}::bigint[]) AS v(account_id, system_code, amount_cents)
      JOIN ledger_accounts la ON la.currency = ${input.currency} AND (la.account_id = v.account_id OR la.system_code = v.system_code)
      RETURNING ledger_account_id
    )
    SELECT t.id, t.transaction_id, t.created_at, p.ledger_account_id, la.account_id, la.system_code
    FROM t
    LEFT JOIN p ON true
    LEFT JOIN ledger_accounts la ON la.id = p.ledger_account_id`.execute(trx);
  const first = rows[0];
  if (!first) throw new Error('the ledger transaction was not written');
  const ledgerAccountOf = new Map<PartyKey, number>();
  for (const row of rows) {
    if (row.ledgerAccountId === null) continue;
    ledgerAccountOf.set(row.accountId ? `wallet:${row.accountId}` : `system:${row.systemCode}`, row.ledgerAccountId);
  }
  return { transaction: { id: first.id, transactionId: first.transactionId, createdAt: first.createdAt }, ledgerAccountOf };
}

/**
 * Records one balanced movement of money inside the caller's database transaction.
 * Wallet balances change through ledger_debit / ledger_credit in ascending ledger-account
 * order, so concurrent movements never deadlock and no balance can go below zero: a debit
 * that does not fit throws InsufficientFundsError and the caller's transaction rolls back.
 * A credit never waits for the wallet's row (see ledger_credit), so a wallet that many
 * people pay at once (a shop, a popular recipient) is no queue.
 *
 * The balance changes come last, after the ledger transaction, its postings and the
 * caller's `beforeBalances` rows: a debit holds its row lock until commit, so it is held for
 * the last statements and the commit rather than the whole transaction. Nothing is visible
 * to anyone before commit, and a refused debit rolls everything back, so the order changes
 * no outcome.
 */
export async function postTransaction(trx: Trx, input: LedgerTransactionInput, options: PostOptions = {}): Promise<PostedMovement> {
  assertBalanced(input);

  const { transaction, ledgerAccountOf } = await insertTransactionAndPostings(trx, input);
  // A party without a ledger account in this currency yet (a wallet's first movement in a
  // currency, a system account's first use): open it and write its posting now.
  for (const posting of input.postings) {
    const key = partyKey(posting.party);
    if (ledgerAccountOf.has(key)) continue;
    const ledgerAccountId =
      'walletAccountId' in posting.party
        ? await walletLedgerAccountId(trx, posting.party.walletAccountId, input.currency)
        : await systemLedgerAccountId(trx, posting.party.system, input.currency);
    ledgerAccountOf.set(key, ledgerAccountId);
    const missing = input.postings.filter((other) => partyKey(other.party) === key);
    await trx
      .insertInto('ledgerPostings')
      .values(missing.map((entry) => ({ ledgerTransactionId: transaction.id, ledgerAccountId, amountCents: entry.amountCents })))
      .execute();
  }

  await options.beforeBalances?.(transaction);

  // Net change per wallet ledger account, applied in ascending id order (the lock order).
  const netByWallet = new Map<number, { walletAccountId: string; delta: number }>();
  for (const { party, amountCents } of input.postings) {
    if (!('walletAccountId' in party)) continue;
    const ledgerAccountId = ledgerAccountOf.get(partyKey(party));
    if (ledgerAccountId === undefined) throw new Error('a posting without a ledger account');
    const net = netByWallet.get(ledgerAccountId) ?? { walletAccountId: party.walletAccountId, delta: 0 };
    net.delta += amountCents;
    netByWallet.set(ledgerAccountId, net);
  }
  // Through the ledger's balance functions (db/functions): a debit takes the wallet's row
  // lock and checks the floor; a credit never waits for it (see ledger_credit).
  const changed = [...netByWallet].filter(([, { delta }]) => delta !== 0).sort(([a], [b]) => a - b);
  for (const [ledgerAccountId, { delta }] of changed) {
    if (delta < 0) {
      const { rows } = await sql<{ ok: boolean }>`SELECT ledger_debit(${ledgerAccountId}::bigint, ${-delta}::bigint) AS ok`.execute(trx);
      if (rows[0]?.ok !== true) throw new InsufficientFundsError();
    } else {
      await sql`SELECT ledger_credit(${ledgerAccountId}::bigint, ${delta}::bigint)`.execute(trx);
    }
  }
  const balancesAfter = new Map<string, Cents>();
  if (changed.length > 0) {
    const { rows } = await sql<{ id: number; balance: number }>`
      SELECT id, ledger_balance(id) AS balance FROM unnest(${changed.map(([id]) => id)}::bigint[]) AS t(id)`.execute(trx);
    const balanceOf = new Map(rows.map((row) => [Number(row.id), row.balance]));
    for (const [ledgerAccountId, { walletAccountId }] of changed) balancesAfter.set(walletAccountId, asCents(balanceOf.get(ledgerAccountId) ?? 0));
  }

  return { ...transaction, balancesAfter };
}

/** A wallet account's balances, one per currency it holds. */
export async function walletBalances(db: Db | Trx, walletAccountId: string): Promise<{ currency: string; amountCents: Cents }[]> {
  const rows = await db
    .selectFrom('walletBalances')
    .select(['currency', 'balanceCents'])
    .where('accountId', '=', walletAccountId)
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency, amountCents: asCents(row.balanceCents) }));
}

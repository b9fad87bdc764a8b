import { randomBytes } from 'node:crypto';
import { MAX_AMOUNT_CENTS, type AmountCents, type Currency } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The ledger: the only code that writes postings or changes a balance.
 *
 * Every movement of money is one ledger transaction whose postings sum to zero (a database
 * trigger checks this again at commit). A wallet account's balance is cached in
 * ledger_accounts.balance_cents and changes in the same database transaction as its
 * postings; a CHECK keeps it from going below zero. System accounts (the other side of
 * money entering or leaving Kestrel) have no cached balance, so they are never a hot row:
 * their balance is the sum of their postings.
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
} as const;
export type SystemAccountCode = (typeof SYSTEM_ACCOUNTS)[keyof typeof SYSTEM_ACCOUNTS];

export type LedgerParty = { walletAccountId: string } | { system: SystemAccountCode };

export interface Posting {
  party: LedgerParty;
  /** Positive adds to the party's balance, negative takes from it. */
  amountCents: AmountCents;
}

export interface LedgerTransactionInput {
  kind: string;
  /** The purpose shown in transaction lists (the spec's transactionFor). */
  transactionFor: string;
  currency: Currency;
  /** The headline amount of the movement (what the sender sent), in cents. */
  amountCents: AmountCents;
  feeCents?: AmountCents;
  createdBy?: string | null;
  metadata?: Record<string, unknown>;
  postings: Posting[];
}

export interface PostedTransaction {
  id: number;
  transactionId: string;
  createdAt: Date;
}

export class InsufficientFundsError extends AppError {
  constructor() {
    super(400, 'insufficient_balance', 'Insufficient balance');
  }
}

/** Public transaction ids: "TNX" and 20 random base32-ish characters. */
export function newTransactionId(): string {
  return `TNX${randomBytes(13).toString('base64url').replace(/[-_]/g, '').slice(0, 16).toUpperCase()}`;
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

/**
 * Records one balanced movement of money inside the caller's database transaction.
 * Wallet balances are changed with conditional updates in ascending ledger-account order,
 * so concurrent movements never deadlock and no balance can go below zero: a debit that
 * does not fit throws InsufficientFundsError and the caller's transaction rolls back.
 */
export async function postTransaction(trx: Trx, input: LedgerTransactionInput): Promise<PostedTransaction> {
  assertBalanced(input);

  const resolved: { ledgerAccountId: number; wallet: boolean; amountCents: number }[] = [];
  for (const posting of input.postings) {
    const wallet = 'walletAccountId' in posting.party;
    const ledgerAccountId =
      'walletAccountId' in posting.party
        ? await walletLedgerAccountId(trx, posting.party.walletAccountId, input.currency)
        : await systemLedgerAccountId(trx, posting.party.system, input.currency);
    resolved.push({ ledgerAccountId, wallet, amountCents: posting.amountCents });
  }

  // Net change per wallet ledger account, applied in ascending id order (the lock order).
  const netByWallet = new Map<number, number>();
  for (const entry of resolved) {
    if (entry.wallet) netByWallet.set(entry.ledgerAccountId, (netByWallet.get(entry.ledgerAccountId) ?? 0) + entry.amountCents);
  }
  for (const [ledgerAccountId, delta] of [...netByWallet].sort(([a], [b]) => a - b)) {
    if (delta === 0) continue;
    const updated = await trx
      .updateTable('ledgerAccounts')
      .set({ balanceCents: sql`balance_cents + ${delta}` })
      .where('id', '=', ledgerAccountId)
      .where(sql<boolean>`balance_cents + ${delta} >= 0`)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new InsufficientFundsError();
  }

  const transaction = await trx
    .insertInto('ledgerTransactions')
    .values({
      transactionId: newTransactionId(),
      kind: input.kind,
      transactionFor: input.transactionFor,
      currency: input.currency,
      amountCents: input.amountCents,
      feeCents: input.feeCents ?? 0,
      createdBy: input.createdBy ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
    })
    .returning(['id', 'transactionId', 'createdAt'])
    .executeTakeFirstOrThrow();

  await trx
    .insertInto('ledgerPostings')
    .values(resolved.map((entry) => ({ ledgerTransactionId: transaction.id, ledgerAccountId: entry.ledgerAccountId, amountCents: entry.amountCents })))
    .execute();

  return transaction;
}

/** A wallet account's balances, one per currency it holds. */
export async function walletBalances(db: Db | Trx, walletAccountId: string): Promise<{ currency: string; amountCents: number }[]> {
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['currency', 'balanceCents'])
    .where('accountId', '=', walletAccountId)
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency, amountCents: row.balanceCents }));
}

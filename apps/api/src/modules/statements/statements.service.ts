import { sign } from 'node:crypto';
import {
  STATEMENT_FORMAT,
  statementMessage,
  type AccountStatement,
  type Currency,
  type StatementMonth,
  type StatementMonthList,
  type StatementMovement,
} from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedAccount, type OwnedAccount } from '../../http/ownership.ts';
import { proofsOf, sealKey, utcMicros } from '../ledger/seals.ts';

/*
 * Monthly statements, computed from the ledger's postings in integer cents (bigint text, never
 * floats): the opening balance is the sum of the account's postings in transactions made before
 * the month, each movement is the sum of its transaction's postings to the account, and the
 * closing balance is the opening plus the movements. Months are UTC months; the current month is
 * offered "so far" (complete: false), up to the moment it is asked for.
 */

/** 'YYYY-MM' of a date, UTC. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The month's first instant and the next month's, UTC. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, monthNumber - 1, 1)), end: new Date(Date.UTC(year, monthNumber, 1)) };
}

/** Every month from the one the account was opened in to the current one, newest first. */
export function statementMonths(openedAt: Date, now: Date): StatementMonth[] {
  const current = monthOf(now);
  const months: StatementMonth[] = [];
  for (let month = monthOf(openedAt); month <= current; month = monthOf(monthBounds(month).end)) {
    months.push({ month, complete: month < current });
  }
  return months.reverse();
}

async function ownedAccountOr404(ctx: AppContext, userId: string, accountNumber: string): Promise<OwnedAccount> {
  const account = await findOwnedAccount(ctx.db, { userId }, accountNumber);
  // The account routes' own answer, so another person's account cannot be told from an unknown one.
  if (!account) throw refuse('account_not_found');
  return account;
}

export async function listStatementMonths(ctx: AppContext, userId: string, accountNumber: string, now = new Date()): Promise<StatementMonthList> {
  const account = await ownedAccountOr404(ctx, userId, accountNumber);
  return { accountNumber: account.accountNumber, months: statementMonths(account.createdAt, now) };
}

/** A movement as the database sums it: the shared shape without what the statement adds (running balance, proof). */
type MovementRow = Omit<StatementMovement, 'balanceAfterCents' | 'proof'>;

/** The balance of the account's wallet in `currency` from the postings of transactions made before `before`. */
export async function balanceBefore(db: Db | Trx, accountId: string, currency: string, before: Date): Promise<bigint> {
  const result = await sql<{ cents: string }>`
    SELECT COALESCE(SUM(p.amount_cents), 0)::text AS cents
    FROM ledger_accounts la
    JOIN ledger_postings p ON p.ledger_account_id = la.id
    JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
    WHERE la.account_id = ${accountId} AND la.currency = ${currency} AND t.created_at < ${before}::timestamptz`.execute(db);
  return BigInt(result.rows[0]!.cents);
}

/** Each ledger transaction of the month that moved the account's money, oldest first, with what it did to the account. */
async function movementsBetween(db: Db, accountId: string, currency: string, start: Date, end: Date): Promise<MovementRow[]> {
  const result = await sql<MovementRow>`
    SELECT t.transaction_id AS "transactionId", ${utcMicros('t.created_at')} AS "createdAt", t.kind, t.transaction_for AS "transactionFor",
           t.amount_cents::text AS "amountCents", t.fee_cents::text AS "feeCents", SUM(p.amount_cents)::text AS "netCents"
    FROM ledger_accounts la
    JOIN ledger_postings p ON p.ledger_account_id = la.id
    JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
    WHERE la.account_id = ${accountId} AND la.currency = ${currency}
      AND t.created_at >= ${start}::timestamptz AND t.created_at < ${end}::timestamptz
    GROUP BY t.id
    ORDER BY t.created_at, t.id`.execute(db);
  return result.rows;
}

/** 'YYYY-MM-DDTHH:MM:SS.ffffffZ' of a Date (microseconds as zeros): the sealed records' form. */
const utcText = (date: Date) => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * The statement of one of the caller's accounts for one UTC month, signed with the ledger's seal
 * key, each movement with its inclusion proof (null while not sealed yet). 404 for anyone else's
 * account, and for a month before the account was opened or after the current one.
 */
export async function buildStatement(ctx: AppContext, userId: string, accountNumber: string, month: string, currency: Currency = 'USD', now = new Date()): Promise<AccountStatement> {
  const account = await ownedAccountOr404(ctx, userId, accountNumber);
  const offered = statementMonths(account.createdAt, now).find((candidate) => candidate.month === month);
  if (!offered) throw refuse('no_statement');
  const { start, end } = monthBounds(month);
  // The current month so far: what is made after this moment is not on it, even while we read.
  const until = offered.complete ? end : now;
  const opening = await balanceBefore(ctx.db, account.id, currency, start);
  const rows = await movementsBetween(ctx.db, account.id, currency, start, until);
  const proofs = await proofsOf(ctx.db, rows.map((row) => row.transactionId));
  let balance = opening;
  const movements = rows.map((row) => {
    balance += BigInt(row.netCents);
    const proof = proofs.get(row.transactionId);
    return { ...row, balanceAfterCents: balance.toString(), proof: proof && proof !== 'not_sealed' ? proof : null };
  });
  const key = sealKey(ctx.config.secretKey);
  const unsigned = {
    format: STATEMENT_FORMAT,
    accountNumber: account.accountNumber,
    accountHolderName: account.accountHolderName,
    currency,
    month,
    periodStart: utcText(start),
    periodEnd: utcText(end),
    complete: offered.complete,
    generatedAt: utcText(now),
    openingBalanceCents: opening.toString(),
    closingBalanceCents: balance.toString(),
    movements,
    publicKey: key.publicKeyHex,
  };
  return { ...unsigned, signature: sign(null, Buffer.from(statementMessage(unsigned)), key.privateKey).toString('hex') };
}

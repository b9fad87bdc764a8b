import {
  asCents,
  centsToMajor,
  type AuditLogPage,
  type LedgerHealth,
  type MoneyLockResult,
  type OperatorAccountDetail,
  type OperatorAccountSummary,
  type OperatorOverview,
} from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { countryNameOf } from '../accounts/countries.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { auditLogPage, recordAudit, type AuditLogQuery } from '../audit/audit.ts';
import { failingDelivery } from '../callbacks/callbacks.service.ts';
import { findAccountForOperator, lockMoneyMovementRow, searchAccountSummaries, writeMoneyMovementLock } from '../accounts/accounts.service.ts';
import { recentPostingsOf, walletBalancesOf } from '../ledger/ledger.service.ts';
import { latestActivitiesById } from '../activities/activities.service.ts';
import { recentStoresOf } from '../stores/stores.service.ts';
import { recentPaymentsOf } from '../payments/payments.service.ts';
import { recentWithdrawalsOf } from '../withdrawals/withdrawals.service.ts';

/*
 * The operator console's reads and changes. Every route that reaches here is behind
 * requireOperator (operator.routes.ts); nothing here checks the role again. Every change
 * takes a reason, writes an audit row (operator, address, before/after) and an activity the
 * holder sees, in the same database transaction as the change.
 */

const major = (cents: number | string | bigint) => centsToMajor(asCents(cents));

/** Queue lengths for the console's overview. */
export async function operatorOverview(ctx: AppContext): Promise<OperatorOverview> {
  const { rows } = await sql<Record<keyof OperatorOverview, string | number>>`
    SELECT
      (SELECT COUNT(*) FROM stores WHERE status = 'Pending') AS stores_pending,
      (SELECT COUNT(*) FROM bank_withdrawals WHERE status = 'Pending') AS withdrawals_pending,
      (SELECT COUNT(*) FROM bank_withdrawals WHERE status = 'Processing') AS withdrawals_processing,
      (SELECT COUNT(DISTINCT a.id) FROM accounts a JOIN identity_documents d ON d.account_id = a.id
        WHERE a.identity_verified = false AND d.set_aside_at IS NULL) AS identity_reviews_waiting,
      (SELECT COUNT(*) FROM callback_deliveries WHERE ${failingDelivery}) AS callbacks_failing,
      (SELECT COUNT(*) FROM reconciliation_mismatches WHERE status = 'open') AS reconciliation_open`.execute(ctx.db);
  const row = rows[0]!;
  return {
    storesPending: Number(row.storesPending),
    withdrawalsPending: Number(row.withdrawalsPending),
    withdrawalsProcessing: Number(row.withdrawalsProcessing),
    identityReviewsWaiting: Number(row.identityReviewsWaiting),
    callbacksFailing: Number(row.callbacksFailing),
    reconciliationOpen: Number(row.reconciliationOpen),
  };
}

/** Accounts whose number, user name, e-mail or phone contains `q` (case-insensitive), at most 50. */
export async function searchAccounts(ctx: AppContext, q: string): Promise<OperatorAccountSummary[]> {
  // LIKE's own wildcards in the search text are matched literally.
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return searchAccountSummaries(ctx.db, pattern);
}

const RECENT = 20;

/** One account with its balances and its latest postings, activities, stores, payments and withdrawals. */
export async function accountDetail(ctx: AppContext, accountId: string): Promise<OperatorAccountDetail> {
  const account = await findAccountForOperator(ctx.db, accountId);
  if (!account) throw refuse('account_not_found');

  const [balances, postings, activities, stores, payments, withdrawals] = await Promise.all([
    walletBalancesOf(ctx.db, accountId),
    recentPostingsOf(ctx.db, accountId, RECENT),
    latestActivitiesById(ctx.db, accountId, RECENT),
    recentStoresOf(ctx.db, accountId, RECENT),
    recentPaymentsOf(ctx.db, accountId, RECENT),
    recentWithdrawalsOf(ctx.db, accountId, RECENT),
  ]);

  const { street, city, state, zipCode, country, createdAt, ...rest } = account;
  return {
    // The country is stored as its code; the console shows its name.
    account: { ...rest, address: [street, city, state, zipCode, countryNameOf(country)].filter(Boolean).join(', '), createdAt: createdAt.toISOString() },
    balances: balances.map((row) => ({ currency: row.currency, amount: major(row.balanceCents) })),
    postings: postings.map((row) => ({ ...row, amount: major(row.amountCents), amountCents: undefined, createdAt: row.createdAt.toISOString() })),
    activities: activities.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    stores: stores.map((row) => ({ _id: row.id, storeId: row.storeId, storeName: row.storeName, status: row.status, createdAt: row.createdAt.toISOString() })),
    payments: payments.map((row) => ({ ...row, amount: major(row.amountCents), amountCents: undefined, createdAt: row.createdAt.toISOString() })),
    withdrawals: withdrawals.map((row) => ({ _id: row.id, currency: row.currency, amount: major(row.amountCents), status: row.status, bankName: row.bankName, createdAt: row.createdAt.toISOString() })),
  };
}

/**
 * Locks or unlocks money movement out of the account. The row is taken FOR UPDATE, so a
 * movement that read it FOR SHARE (assertTpinNotLocked) either committed before the lock or
 * sees it.
 */
export async function setMoneyMovementLock(ctx: AppContext, operatorId: string, accountId: string, locked: boolean, reason: string, ip: string): Promise<MoneyLockResult> {
  return inTransaction(ctx.db, async (trx) => {
    const before = await lockMoneyMovementRow(trx, accountId);
    if (!before) throw refuse('account_not_found');
    await assertNotOwnAccount(trx, operatorId, accountId);
    await writeMoneyMovementLock(trx, accountId, locked, reason);
    await recordActivity(trx, accountId, locked ? 'Money movement locked' : 'Money movement unlocked', `By Kestrel: ${reason}`);
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: locked ? 'account.money_locked' : 'account.money_unlocked',
      subjectType: 'account',
      subjectId: accountId,
      ip,
      details: { reason, before, after: { moneyMovementLocked: locked, moneyMovementLockReason: locked ? reason : null } },
    });
    return { accountId, moneyMovementLocked: locked };
  });
}

/** The live ledger check: verifyLedger's figures plus system account balances and totals. */
export async function ledgerHealth(ctx: AppContext): Promise<LedgerHealth> {
  const report = await verifyLedger(ctx.db);
  const kinds: { name: string; kinds: string[] }[] = [
    { name: 'Every transaction sums to zero', kinds: ['unbalanced_transaction'] },
    { name: 'Every posting is in its transaction’s currency', kinds: ['currency_mismatch'] },
    { name: 'Every cached balance equals its postings', kinds: ['balance_mismatch'] },
    { name: 'No wallet balance is negative', kinds: ['negative_balance'] },
  ];
  const checks = kinds.map(({ name, kinds: wanted }) => {
    const offending = report.problems.filter((problem) => wanted.includes(problem.kind)).map((problem) => problem.detail);
    // The first offending rows are enough to start looking; the CLI lists them all.
    return { name, ok: offending.length === 0, offending: offending.slice(0, 10) };
  });
  const system = await sql<{ systemCode: string; currency: string; total: string | number }>`
    SELECT a.system_code, a.currency, COALESCE(SUM(p.amount_cents), 0)::bigint AS total
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
    WHERE a.system_code IS NOT NULL
    GROUP BY a.system_code, a.currency ORDER BY a.system_code, a.currency`.execute(ctx.db);
  const wallets = await sql<{ currency: string; total: string | number }>`
    SELECT currency, COALESCE(SUM(balance_cents), 0)::bigint AS total FROM wallet_balances
    GROUP BY currency ORDER BY currency`.execute(ctx.db);
  // Money on its way out to banks: withdrawals Pending or Processing. (The payouts-in-flight
  // account's balance also holds Completed payouts, which no ledger transaction moves out.)
  const inFlight = await sql<{ currency: string; total: string | number }>`
    SELECT currency, SUM(amount_cents)::bigint AS total FROM bank_withdrawals
    WHERE status IN ('Pending', 'Processing') GROUP BY currency ORDER BY currency`.execute(ctx.db);
  return {
    healthy: report.problems.length === 0,
    checkedAt: new Date().toISOString(),
    transactions: report.transactions,
    postings: report.postings,
    walletAccounts: report.walletAccounts,
    checks,
    systemAccounts: system.rows.map((row) => ({ code: row.systemCode, currency: row.currency, balance: major(row.total) })),
    totalInWallets: wallets.rows.map((row) => ({ currency: row.currency, amount: major(row.total) })),
    totalInFlight: inFlight.rows.map((row) => ({ currency: row.currency, amount: major(row.total) })),
  };
}

/** The audit log, newest first. `actor` is a user id or e-mail; `subject` a subject id. */
export async function listAuditLog(ctx: AppContext, query: AuditLogQuery): Promise<AuditLogPage> {
  const { total, rows } = await auditLogPage(ctx.db, query);
  return {
    items: rows.map((row) => ({ ...row, details: (row.details ?? {}) as Record<string, unknown>, createdAt: row.createdAt.toISOString() })),
    page: query.page,
    pageSize: query.pageSize,
    total,
  };
}

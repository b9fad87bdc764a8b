import { sql, type Expression, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { BankWithdrawalsTable } from '../../db/schema.ts';

export type WithdrawalRow = Selectable<BankWithdrawalsTable>;

/**
 * An account's withdrawals, newest first, on the (account_id, created_at, id) index. With
 * `after` (the id of the last one already shown) only the ones after it in that order: the
 * keyset is read from that row, so rows sharing a timestamp are neither skipped nor repeated,
 * and an id of another account's withdrawal matches no row and yields an empty page.
 */
export function listAccountWithdrawals(db: Db, accountId: string, page: { limit: number; after?: string | undefined }) {
  let query = db.selectFrom('bankWithdrawals').selectAll().where('accountId', '=', accountId);
  if (page.after) {
    query = query.where(
      sql<boolean>`(bank_withdrawals.created_at, bank_withdrawals.id) < (SELECT last.created_at, last.id FROM bank_withdrawals last WHERE last.id = ${page.after} AND last.account_id = ${accountId})`,
    );
  }
  return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

/** The list page's counters over all of an account's withdrawals, in one pass of its index. */
export function countAccountWithdrawalsByStatus(db: Db, accountId: string) {
  return db
    .selectFrom('bankWithdrawals')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'Completed').as('completed'),
      eb.fn.countAll<string>().filterWhere('status', 'in', ['Pending', 'Processing']).as('pending'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'Failed').as('failed'),
    ])
    .where('accountId', '=', accountId)
    .executeTakeFirstOrThrow();
}

/** A withdrawal's status changes, oldest first, as the audit trail recorded them. */
export function withdrawalAuditSteps(db: Db, withdrawalId: string) {
  return db
    .selectFrom('auditLog')
    .select(['action', 'createdAt'])
    .where('subjectType', '=', 'bank_withdrawal')
    .where('subjectId', '=', withdrawalId)
    .orderBy('id')
    .execute();
}

/** The dashboard's Total Withdraw: every withdrawal the account has asked for. */
/** An account's bank withdrawals, counted. `accountId` may be a column of an outer query. */
export function countAccountWithdrawalsQuery(db: Db, accountId: string | Expression<string>) {
  return db
    .selectFrom('bankWithdrawals')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('accountId', '=', accountId);
}

export async function countAccountWithdrawals(db: Db, accountId: string): Promise<number> {
  const row = await countAccountWithdrawalsQuery(db, accountId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The operators' queue: oldest first, optionally one status only. */
export function listWithdrawalsForOperators(db: Db, status: WithdrawalRow['status'] | undefined, limit = 500) {
  let query = db
    .selectFrom('bankWithdrawals')
    .innerJoin('accounts', 'accounts.id', 'bankWithdrawals.accountId')
    .selectAll('bankWithdrawals')
    .select(['accounts.accountNumber', 'accounts.accountHolderName as accountHolder'])
    .orderBy('bankWithdrawals.createdAt')
    .orderBy('bankWithdrawals.id')
    .limit(limit);
  if (status) query = query.where('bankWithdrawals.status', '=', status);
  return query.execute();
}

/** The withdrawal with its account's number and holder (an operator's move reads it before its one call). */
export function findWithdrawalWithAccount(db: Db | Trx, id: string) {
  return db
    .selectFrom('bankWithdrawals')
    .innerJoin('accounts', 'accounts.id', 'bankWithdrawals.accountId')
    .selectAll('bankWithdrawals')
    .select(['accounts.accountNumber', 'accounts.accountHolderName as accountHolder'])
    .where('bankWithdrawals.id', '=', id)
    .executeTakeFirst();
}

/** The withdrawal's own columns of a row read with its account's. */
export function withdrawalColumns(row: WithdrawalRow & { accountNumber: string; accountHolder: string }): WithdrawalRow {
  const { accountNumber: _number, accountHolder: _holder, ...withdrawal } = row;
  return withdrawal;
}

/** Withdrawals by id, for the owner's status notices (modules/notifications). */
export function withdrawalsForNotice(db: Db | Trx, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('bankWithdrawals')
    .select(['id', 'accountId', 'currency', 'amountCents', 'bankName', 'bankAccountNumber', 'failureReason', 'createdAt', 'updatedAt'])
    .where('id', 'in', ids)
    .execute();
}
export type WithdrawalNoticeRow = Awaited<ReturnType<typeof withdrawalsForNotice>>[number];

/** The account's latest `limit` withdrawals, newest first. */
export function recentWithdrawalsOf(db: Db, accountId: string, limit: number) {
  return db.selectFrom('bankWithdrawals').select(['id', 'currency', 'amountCents', 'status', 'bankName', 'createdAt']).where('accountId', '=', accountId).orderBy('createdAt', 'desc').limit(limit).execute();
}

export function withdrawalAmountOf(db: Db, id: string) {
  return db.selectFrom('bankWithdrawals').select(['amountCents']).where('id', '=', id).executeTakeFirst();
}

/** The withdrawal's row, taken FOR UPDATE in `trx`; throws when there is none. */
export function lockWithdrawal(trx: Trx, id: string) {
  return trx.selectFrom('bankWithdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

import type { Expression, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { BankWithdrawalsTable } from '../../db/schema.ts';

export type WithdrawalRow = Selectable<BankWithdrawalsTable>;

/** The caller's account with this number, with its TPIN state for the TPIN check; undefined for anyone else's. */
/** An account's withdrawals, newest first. */
export function listAccountWithdrawals(db: Db, accountId: string, limit = 500) {
  return db
    .selectFrom('bankWithdrawals')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
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

/** The withdrawal, locked until the end of the transaction: operators acting at once on one withdrawal take turns. */
export function lockWithdrawal(trx: Trx, id: string) {
  return trx.selectFrom('bankWithdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

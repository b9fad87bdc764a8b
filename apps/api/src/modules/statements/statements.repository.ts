import type { Db } from '../../db/database.ts';

/*
 * The statement mails' read model: accounts (modules/accounts) that have no statement mail for
 * the month yet. A repository may read another module's table; it writes only statement_mails.
 */

export interface DueAccount {
  id: string;
  accountNumber: string;
  accountType: 'personal' | 'business';
  accountHolderName: string;
  businessName: string | null;
  accountEmail: string;
}

/**
 * The next `limit` accounts, by id after `after`, that take e-mail notices, existed before `end`
 * and have no statement mail for `month`; `onlyAccountIds` narrows them (an empty list to none).
 */
export async function accountsDueStatement(db: Db, due: { month: string; end: Date; after: string; limit: number; onlyAccountIds?: readonly string[] | undefined }): Promise<DueAccount[]> {
  let query = db
    .selectFrom('accounts')
    .select(['accounts.id', 'accounts.accountNumber', 'accounts.accountType', 'accounts.accountHolderName', 'accounts.businessName', 'accounts.accountEmail'])
    .where('accounts.notificationPreference', '=', 'email')
    .where('accounts.createdAt', '<', due.end)
    .where('accounts.id', '>', due.after)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('statementMails').select('statementMails.accountId').whereRef('statementMails.accountId', '=', 'accounts.id').where('statementMails.month', '=', due.month))))
    .orderBy('accounts.id')
    .limit(due.limit);
  if (due.onlyAccountIds) query = query.where('accounts.id', 'in', due.onlyAccountIds.length ? [...due.onlyAccountIds] : ['00000000-0000-0000-0000-000000000000']);
  return (await query.execute()) as DueAccount[];
}

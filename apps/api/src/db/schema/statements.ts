import type { CreatedAt } from './columns.ts';

/* Monthly statements (migration 0025): which accounts were mailed which month's statement. */

export interface StatementMailsTable {
  accountId: string;
  /** A UTC month, 'YYYY-MM'. */
  month: string;
  mailedAt: CreatedAt;
}

export interface StatementTables {
  statementMails: StatementMailsTable;
}

import { maskBankAccountNumber } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { accountCsvExport, csvMoney, EXPORT_PAGE_ROWS, formatUtcDateTime, type CsvColumn } from '../../http/csv.ts';
import type { WithdrawalRow } from './withdrawals.repository.ts';

/** A page of one account's withdrawals, newest first, after the last row of the page before (keyset on created_at, id). */
function withdrawalsPage(db: Db, accountId: string, range: { start: Date | null; end: Date | null }, after: WithdrawalRow | undefined) {
  let query = db.selectFrom('bankWithdrawals').selectAll().where('accountId', '=', accountId);
  if (range.start) query = query.where('createdAt', '>=', range.start);
  if (range.end) query = query.where('createdAt', '<', range.end);
  if (after) query = query.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(EXPORT_PAGE_ROWS).execute();
}


/** The list's columns (Amount with status, Bank, Account No., Routing Number, Date), then the same for machines. */
const columns: CsvColumn<WithdrawalRow>[] = [
  { header: 'Date (UTC)', value: (row) => formatUtcDateTime(row.updatedAt) },
  { header: 'Amount', value: (row) => csvMoney(row.amountCents, row.currency) },
  { header: 'Status', value: (row) => row.status },
  { header: 'Bank', value: (row) => row.bankName },
  { header: 'Branch', value: (row) => row.branchName },
  { header: 'Country', value: (row) => row.country },
  { header: 'Account type', value: (row) => row.accountType },
  { header: 'Account No.', value: (row) => maskBankAccountNumber(row.bankAccountNumber) },
  { header: 'Routing Number', value: (row) => row.routingNumber },
  { header: 'Account holder', value: (row) => row.accountHolderName },
  { header: 'Failure reason', value: (row) => row.failureReason },
  { header: 'created_at_iso', value: (row) => row.createdAt.toISOString() },
  { header: 'updated_at_iso', value: (row) => row.updatedAt.toISOString() },
  { header: 'currency', value: (row) => row.currency },
  { header: 'amount_cents', value: (row) => row.amountCents },
];

export const withdrawalsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  accountCsvExport(app, app.ctx, {
    path: '/export/withdrawals/:accountNumber',
    summary: "Your account's bank withdrawals as CSV",
    description:
      'Every withdrawal of one of your accounts, newest first, optionally made between two UTC days (both inclusive). Bank account numbers are masked as in the list. Streamed; UTF-8 with a byte-order mark.',
    fileStem: 'withdrawals',
    columns,
    page: (db, accountId, range, after) => withdrawalsPage(db, accountId, range, after),
  });
};

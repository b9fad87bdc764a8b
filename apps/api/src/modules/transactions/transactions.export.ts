import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { accountCsvExport, csvMoney, EXPORT_PAGE_ROWS, formatUtcDateTime, type CsvColumn } from '../../http/csv.ts';

/** One ledger transaction as one account saw it. */
interface ExportedTransaction {
  id: string;
  transactionId: string;
  transactionFor: string;
  currency: string;
  amountCents: string;
  feeCents: string;
  /** What the transaction did to this account, signed. */
  netCents: string;
  createdAt: Date;
  counterparties: string | null;
}

/**
 * A page of the transactions touching one account, newest first, after `afterId`. The inner
 * query walks the account's postings on their (ledger account, transaction) index, so each page
 * costs its own rows, however long the history.
 */
function transactionsPage(db: Db, accountId: string, range: { start: Date | null; end: Date | null }, afterId: string | undefined) {
  return sql<ExportedTransaction>`
    WITH ids AS (
      SELECT DISTINCT p.ledger_transaction_id AS id
      FROM ledger_accounts la
      JOIN ledger_postings p ON p.ledger_account_id = la.id
      JOIN ledger_transactions t ON t.id = p.ledger_transaction_id
      WHERE la.account_id = ${accountId}
        AND (${afterId ?? null}::bigint IS NULL OR p.ledger_transaction_id < ${afterId ?? null}::bigint)
        AND (${range.start}::timestamptz IS NULL OR t.created_at >= ${range.start}::timestamptz)
        AND (${range.end}::timestamptz IS NULL OR t.created_at < ${range.end}::timestamptz)
      ORDER BY 1 DESC
      LIMIT ${EXPORT_PAGE_ROWS}
    )
    SELECT t.id::text AS id, t.transaction_id AS "transactionId", t.transaction_for AS "transactionFor", t.currency,
           t.amount_cents::text AS "amountCents", t.fee_cents::text AS "feeCents", t.created_at AS "createdAt",
           (SELECT SUM(p.amount_cents) FROM ledger_postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
             WHERE p.ledger_transaction_id = t.id AND la.account_id = ${accountId})::text AS "netCents",
           (SELECT string_agg(DISTINCT a.account_number, ' ') FROM ledger_postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
             JOIN accounts a ON a.id = la.account_id
             WHERE p.ledger_transaction_id = t.id AND la.account_id <> ${accountId}) AS counterparties
    FROM ids JOIN ledger_transactions t ON t.id = ids.id
    ORDER BY t.id DESC`
    .execute(db)
    .then((result) => result.rows);
}


/** The list's columns as the page shows them (Purpose, Amount, Fee, Type, TnxId, Tnx At), then the same for machines. */
const columns: CsvColumn<ExportedTransaction>[] = [
  { header: 'Tnx At (UTC)', value: (row) => formatUtcDateTime(row.createdAt) },
  { header: 'TnxId', value: (row) => row.transactionId },
  { header: 'Purpose', value: (row) => row.transactionFor },
  { header: 'Type', value: (row) => (BigInt(row.netCents) < 0n ? 'Debit' : 'Credit') },
  { header: 'Amount', value: (row) => csvMoney(row.amountCents, row.currency) },
  { header: 'Fee', value: (row) => csvMoney(row.feeCents, row.currency) },
  { header: 'Counterparty accounts', value: (row) => row.counterparties },
  { header: 'created_at_iso', value: (row) => row.createdAt.toISOString() },
  { header: 'currency', value: (row) => row.currency },
  { header: 'amount_cents', value: (row) => row.amountCents },
  { header: 'fee_cents', value: (row) => row.feeCents },
  { header: 'net_cents', value: (row) => row.netCents },
];

export const transactionsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  accountCsvExport(app, app.ctx, {
    path: '/export/transactions/:accountNumber',
    summary: "Your account's transactions as CSV",
    description: 'Every transaction touching one of your accounts, newest first, optionally between two UTC days (both inclusive). Streamed; UTF-8 with a byte-order mark, CRLF line ends.',
    fileStem: 'transactions',
    columns,
    page: (db, accountId, range, after) => transactionsPage(db, accountId, range, after?.id),
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { accountCsvExport, csvMoney, EXPORT_PAGE_ROWS, formatUtcDateTime, type CsvColumn } from '../../http/csv.ts';

/** One refund of a gateway payment or a link payment into the account. */
interface ExportedRefund {
  id: string;
  createdAt: Date;
  completedAt: Date | null;
  currency: string;
  amountCents: string;
  feeCents: string;
  status: string;
  reason: string | null;
  initiatedBy: string;
  initiatedByName: string;
  destinationType: string;
  destinationMasked: string;
  transactionId: string;
  failureReason: string | null;
  paymentId: string | null;
  linkPaymentId: string | null;
  storeName: string | null;
}

/** A page of an account's refunds, newest first on its (account_id, created_at) index, after the last row of the page before. */
function refundsPage(db: Db, accountId: string, range: { start: Date | null; end: Date | null }, after: ExportedRefund | undefined) {
  return sql<ExportedRefund>`
    SELECT r.id, r.created_at AS "createdAt", r.completed_at AS "completedAt", r.currency, r.amount_cents::text AS "amountCents",
           r.fee_cents::text AS "feeCents", r.status, r.reason, r.initiated_by AS "initiatedBy", r.initiated_by_name AS "initiatedByName",
           r.destination_type AS "destinationType", r.destination_masked AS "destinationMasked", r.transaction_id AS "transactionId",
           r.failure_reason AS "failureReason", r.payment_id AS "paymentId", r.link_payment_id AS "linkPaymentId", s.store_name AS "storeName"
    FROM refunds r LEFT JOIN stores s ON s.id = r.store_id
    WHERE r.account_id = ${accountId}
      AND (${range.start}::timestamptz IS NULL OR r.created_at >= ${range.start}::timestamptz)
      AND (${range.end}::timestamptz IS NULL OR r.created_at < ${range.end}::timestamptz)
      AND (${after?.createdAt ?? null}::timestamptz IS NULL OR (r.created_at, r.id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::uuid))
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${EXPORT_PAGE_ROWS}`
    .execute(db)
    .then((result) => result.rows);
}


/** A payment's refund list's columns (Amount, Fee returned, Reason, By, Date, Status), the refunded payment, then the same for machines. */
const columns: CsvColumn<ExportedRefund>[] = [
  { header: 'Date (UTC)', value: (row) => formatUtcDateTime(row.createdAt) },
  { header: 'Amount', value: (row) => csvMoney(row.amountCents, row.currency) },
  { header: 'Fee returned', value: (row) => csvMoney(row.feeCents, row.currency) },
  { header: 'Reason', value: (row) => row.reason },
  { header: 'By', value: (row) => `${row.initiatedByName} (${row.initiatedBy})` },
  { header: 'Status', value: (row) => row.status },
  { header: 'Failure reason', value: (row) => row.failureReason },
  { header: 'Destination', value: (row) => `${row.destinationType} ${row.destinationMasked}` },
  { header: 'Transaction ID', value: (row) => row.transactionId },
  { header: 'Payment kind', value: (row) => (row.paymentId ? 'gateway' : 'link') },
  { header: 'Payment ID', value: (row) => row.paymentId ?? row.linkPaymentId },
  { header: 'Store', value: (row) => row.storeName },
  { header: 'Refund ID', value: (row) => row.id },
  { header: 'created_at_iso', value: (row) => row.createdAt.toISOString() },
  { header: 'completed_at_iso', value: (row) => row.completedAt?.toISOString() },
  { header: 'currency', value: (row) => row.currency },
  { header: 'amount_cents', value: (row) => row.amountCents },
  { header: 'fee_returned_cents', value: (row) => row.feeCents },
];

export const refundsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  accountCsvExport(app, app.ctx, {
    path: '/export/refunds/:accountNumber',
    summary: "Your account's refunds as CSV",
    description:
      'Every refund of a payment (gateway or payment-request) into one of your accounts, whatever its status, optionally made between two UTC days (both inclusive), newest first. Streamed; UTF-8 with a byte-order mark, CRLF line ends.',
    fileStem: 'refunds',
    columns,
    page: (db, accountId, range, after) => refundsPage(db, accountId, range, after),
  });
};

import { exportRangeQuery, refundStateLabels, storeExportParams } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { accountCsvExport, csvAnswer, csvMoney, dayRange, EXPORT_PAGE_ROWS, formatUtcDateTime, keysetRows, sendCsv, type CsvColumn } from '../../http/csv.ts';
import { refuse, refusals } from '../../http/refusals.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { findOwnedStore } from '../stores/stores.service.ts';
import { maskedNumber } from './masked-source.ts';

/** One payment as the Payment History list and a store's Payments tab show it, with what its refunds took back. */
interface ExportedPayment {
  id: string;
  createdAt: Date;
  paidAt: Date | null;
  currency: string;
  amountCents: string;
  feeCents: string | null;
  paymentStatus: string;
  failed: boolean;
  orderId: string;
  customerName: string | null;
  customerEmail: string | null;
  paymentSourceType: 'card' | 'wallet' | null;
  sourceBrand: string | null;
  sourceFirst6: string | null;
  sourceLast4: string | null;
  sourceLength: number | null;
  transactionId: string | null;
  storeId: string;
  storeName: string;
  /** Succeeded refunds only, as the list's Refunded label counts them. */
  refundedCents: string;
}

/**
 * A page of the payments into an account or a store, newest first on its (…, created_at, id)
 * index, after the last row of the page before; optionally made between two instants.
 */
function paymentsPage(db: Db, owner: { accountId: string } | { storeId: string }, range: { start: Date | null; end: Date | null }, after: ExportedPayment | undefined) {
  const [column, ownerId] = 'accountId' in owner ? (['account_id', owner.accountId] as const) : (['store_id', owner.storeId] as const);
  return sql<ExportedPayment>`
    SELECT p.id, p.created_at AS "createdAt", p.paid_at AS "paidAt", p.currency, p.amount_cents::text AS "amountCents", p.fee_cents::text AS "feeCents",
           p.payment_status AS "paymentStatus",
           (p.payment_status <> 'success' AND EXISTS (SELECT 1 FROM payment_errors pe WHERE pe.payment_id = p.id)) AS failed,
           p.order_id AS "orderId", p.customer_name AS "customerName", p.customer_email AS "customerEmail",
           p.payment_source_type AS "paymentSourceType", p.source_brand AS "sourceBrand", p.source_first6 AS "sourceFirst6",
           p.source_last4 AS "sourceLast4", p.source_length AS "sourceLength", p.transaction_id AS "transactionId",
           s.store_id AS "storeId", s.store_name AS "storeName",
           (SELECT COALESCE(SUM(r.amount_cents), 0) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded')::text AS "refundedCents"
    FROM payments p JOIN stores s ON s.id = p.store_id
    WHERE p.${sql.raw(column)} = ${ownerId}
      AND (${range.start}::timestamptz IS NULL OR p.created_at >= ${range.start}::timestamptz)
      AND (${range.end}::timestamptz IS NULL OR p.created_at < ${range.end}::timestamptz)
      AND (${after?.createdAt ?? null}::timestamptz IS NULL OR (p.created_at, p.id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::uuid))
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT ${EXPORT_PAGE_ROWS}`
    .execute(db)
    .then((result) => result.rows);
}


function refundState(row: ExportedPayment): string {
  const refunded = BigInt(row.refundedCents);
  if (refunded === 0n) return '';
  return refunded >= BigInt(row.amountCents) ? refundStateLabels.refunded : refundStateLabels.partially_refunded;
}

/** The list's columns (Amount with its status and refund state, Order ID, Customer, Method, Transaction ID, Date), then the same for machines. */
const columns: CsvColumn<ExportedPayment>[] = [
  { header: 'Date (UTC)', value: (row) => formatUtcDateTime(row.paidAt ?? row.createdAt) },
  { header: 'Amount', value: (row) => csvMoney(row.amountCents, row.currency) },
  { header: 'Status', value: (row) => (row.paymentStatus === 'success' ? 'success' : row.failed ? 'failed' : row.paymentStatus) },
  { header: 'Refund state', value: refundState },
  { header: 'Refunded', value: (row) => csvMoney(row.refundedCents, row.currency) },
  { header: 'Fee', value: (row) => (row.feeCents === null ? '' : csvMoney(row.feeCents, row.currency)) },
  { header: 'Order ID', value: (row) => row.orderId },
  { header: 'Customer', value: (row) => row.customerName },
  { header: 'Customer email', value: (row) => row.customerEmail },
  { header: 'Method', value: (row) => row.sourceBrand ?? row.paymentSourceType },
  { header: 'Source', value: (row) => (row.paymentSourceType ? maskedNumber(row) : '') },
  { header: 'Transaction ID', value: (row) => row.transactionId },
  { header: 'Store', value: (row) => row.storeName },
  { header: 'Store ID', value: (row) => row.storeId },
  { header: 'Payment ID', value: (row) => row.id },
  { header: 'created_at_iso', value: (row) => row.createdAt.toISOString() },
  { header: 'paid_at_iso', value: (row) => row.paidAt?.toISOString() },
  { header: 'currency', value: (row) => row.currency },
  { header: 'amount_cents', value: (row) => row.amountCents },
  { header: 'fee_cents', value: (row) => row.feeCents },
  { header: 'refunded_cents', value: (row) => row.refundedCents },
];

const description = 'optionally made between two UTC days (both inclusive), newest first, with the amount its succeeded refunds took back. Streamed; UTF-8 with a byte-order mark, CRLF line ends.';

export const paymentsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  accountCsvExport(app, app.ctx, {
    path: '/export/payments/:accountNumber',
    summary: "Your account's payments (Payment History) as CSV",
    description: `Every gateway payment into one of your accounts, ${description}`,
    fileStem: 'payments',
    columns,
    page: (db, accountId, range, after) => paymentsPage(db, { accountId }, range, after),
  });

  app.get(
    '/export/store-payments/:storeId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['exports'],
        summary: "One of your stores' payments as CSV",
        description: `Every payment into one of your stores, ${description}`,
        params: storeExportParams,
        querystring: exportRangeQuery,
        response: { 200: csvAnswer, ...refusals('not_found') },
      },
    },
    async (request, reply) => {
      const store = await findOwnedStore(app.ctx.db, callerId(request), request.params.storeId);
      if (!store) throw refuse('not_found');
      const range = dayRange(request.query);
      const rows = keysetRows<ExportedPayment>((after) => paymentsPage(app.ctx.db, { storeId: store.id }, range, after));
      return sendCsv(reply, `payments-store-${store.storeId}.csv`, columns, rows);
    },
  );
};

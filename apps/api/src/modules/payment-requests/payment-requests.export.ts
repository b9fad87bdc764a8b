import { exportRangeQuery, paymentRequestExportParams, refundStateLabels } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { accountCsvExport, csvAnswer, csvMoney, dayRange, EXPORT_PAGE_ROWS, formatUtcDateTime, keysetRows, sendCsv, type CsvColumn } from '../../http/csv.ts';
import { refuse, refusals } from '../../http/refusals.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { isUuid } from '../../http/ownership.ts';
import { findOwnedLink } from './payment-requests.repository.ts';

/** One payment made through a payment-request link (every one is a paid one), with what its refunds took back. */
interface ExportedLinkPayment {
  id: string;
  createdAt: Date;
  currency: string;
  amountCents: string;
  feeCents: string;
  sourceType: 'card' | 'wallet';
  sourceBrand: string | null;
  sourceFirst6: string | null;
  sourceLast4: string | null;
  sourceLength: number | null;
  payerEmail: string | null;
  reference: string | null;
  transactionId: string;
  paymentRequestId: string;
  pRequestUrlId: string;
  paymentPurpose: string;
  /** Succeeded refunds only. */
  refundedCents: string;
}

/** A page of link payments, of one link or into one account, newest first, after the last row of the page before. */
function linkPaymentsPage(db: Db, owner: { linkId: string } | { accountId: string }, range: { start: Date | null; end: Date | null }, after: ExportedLinkPayment | undefined) {
  const [column, ownerId] = 'linkId' in owner ? (['payment_request_id', owner.linkId] as const) : (['account_id', owner.accountId] as const);
  return sql<ExportedLinkPayment>`
    SELECT lp.id, lp.created_at AS "createdAt", lp.currency, lp.amount_cents::text AS "amountCents", lp.fee_cents::text AS "feeCents",
           lp.source_type AS "sourceType", lp.source_brand AS "sourceBrand", lp.source_first6 AS "sourceFirst6", lp.source_last4 AS "sourceLast4",
           lp.source_length AS "sourceLength", lp.payer_email AS "payerEmail", lp.reference, lp.transaction_id AS "transactionId",
           lp.payment_request_id AS "paymentRequestId", pr.p_request_url_id AS "pRequestUrlId", pr.payment_purpose AS "paymentPurpose",
           (SELECT COALESCE(SUM(r.amount_cents), 0) FROM refunds r WHERE r.link_payment_id = lp.id AND r.status = 'succeeded')::text AS "refundedCents"
    FROM payment_request_payments lp JOIN payment_requests pr ON pr.id = lp.payment_request_id
    WHERE lp.${sql.raw(column)} = ${ownerId}
      AND (${range.start}::timestamptz IS NULL OR lp.created_at >= ${range.start}::timestamptz)
      AND (${range.end}::timestamptz IS NULL OR lp.created_at < ${range.end}::timestamptz)
      AND (${after?.createdAt ?? null}::timestamptz IS NULL OR (lp.created_at, lp.id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::uuid))
    ORDER BY lp.created_at DESC, lp.id DESC
    LIMIT ${EXPORT_PAGE_ROWS}`
    .execute(db)
    .then((result) => result.rows);
}


/** A card as its first 6 and last 4 with the middle masked, a wallet as its last 4 (as the details page shows it). */
const maskedSource = (row: ExportedLinkPayment) =>
  row.sourceType === 'wallet' ? `****${row.sourceLast4 ?? ''}` : `${row.sourceFirst6 ?? ''}${'*'.repeat(Math.max(0, (row.sourceLength ?? 16) - 10))}${row.sourceLast4 ?? ''}`;

function refundState(row: ExportedLinkPayment): string {
  const refunded = BigInt(row.refundedCents);
  if (refunded === 0n) return '';
  return refunded >= BigInt(row.amountCents) ? refundStateLabels.refunded : refundStateLabels.partially_refunded;
}

/** The details page's 'Successed' columns (Amount, Source, Transaction ID, Date), the link and payer, then the same for machines. */
const columns: CsvColumn<ExportedLinkPayment>[] = [
  { header: 'Date (UTC)', value: (row) => formatUtcDateTime(row.createdAt) },
  { header: 'Amount', value: (row) => csvMoney(row.amountCents, row.currency) },
  { header: 'Fee', value: (row) => csvMoney(row.feeCents, row.currency) },
  { header: 'Refund state', value: refundState },
  { header: 'Refunded', value: (row) => csvMoney(row.refundedCents, row.currency) },
  { header: 'Method', value: (row) => (row.sourceType === 'card' ? (row.sourceBrand ?? 'card') : 'wallet') },
  { header: 'Source', value: maskedSource },
  { header: 'Transaction ID', value: (row) => row.transactionId },
  { header: 'Payer email', value: (row) => row.payerEmail },
  { header: 'Payer reference', value: (row) => row.reference },
  { header: 'Payment purpose', value: (row) => row.paymentPurpose },
  { header: 'Request URL ID', value: (row) => row.pRequestUrlId },
  { header: 'Payment ID', value: (row) => row.id },
  { header: 'created_at_iso', value: (row) => row.createdAt.toISOString() },
  { header: 'currency', value: (row) => row.currency },
  { header: 'amount_cents', value: (row) => row.amountCents },
  { header: 'fee_cents', value: (row) => row.feeCents },
  { header: 'refunded_cents', value: (row) => row.refundedCents },
  { header: 'payment_request_id', value: (row) => row.paymentRequestId },
];

const description = 'optionally made between two UTC days (both inclusive), newest first, with the amount its succeeded refunds took back. Streamed; UTF-8 with a byte-order mark, CRLF line ends.';

export const paymentRequestsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  accountCsvExport(app, app.ctx, {
    path: '/export/payment-request-payments/:accountNumber',
    summary: "Payments through your account's payment requests as CSV",
    description: `Every payment made through any payment-request link of one of your accounts, ${description}`,
    fileStem: 'payment-request-payments',
    columns,
    page: (db, accountId, range, after) => linkPaymentsPage(db, { accountId }, range, after),
  });

  app.get(
    '/export/payment-request/:paymentRequestId/payments',
    {
      onRequest: requireUser,
      schema: {
        tags: ['exports'],
        summary: "One of your payment requests' payments as CSV",
        description: `Every payment made through one of your payment-request links, ${description}`,
        params: paymentRequestExportParams,
        querystring: exportRangeQuery,
        response: { 200: csvAnswer, ...refusals('not_found') },
      },
    },
    async (request, reply) => {
      const { paymentRequestId } = request.params;
      const link = isUuid(paymentRequestId) ? await findOwnedLink(app.ctx.db, callerId(request), paymentRequestId) : undefined;
      if (!link) throw refuse('not_found');
      const range = dayRange(request.query);
      const rows = keysetRows<ExportedLinkPayment>((after) => linkPaymentsPage(app.ctx.db, { linkId: link.id }, range, after));
      return sendCsv(reply, `payment-request-${link.pRequestUrlId}-payments.csv`, columns, rows);
    },
  );
};

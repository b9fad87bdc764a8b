import type { ChartPeriod } from '@kestrel/shared';
import { sql, type Expression } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { DECLINE_CODES } from '../payments/card-processor.ts';
import { earlierUseColumn, earlierUseOf } from '../../http/idempotency.ts';
import { heldBy } from '../../http/ownership.ts';

const linkColumns = [
  'paymentRequests.id',
  'paymentRequests.accountId',
  'paymentRequests.createdBy',
  'paymentRequests.pRequestUrlId',
  'paymentRequests.status',
  'paymentRequests.paymentPurpose',
  'paymentRequests.reference',
  'paymentRequests.customerName',
  'paymentRequests.customerEmail',
  'paymentRequests.customerPhone',
  'paymentRequests.amountType',
  'paymentRequests.currency',
  'paymentRequests.amountCents',
  'paymentRequests.minimumAmountCents',
  'paymentRequests.maximumAmountCents',
  'paymentRequests.isUseLimit',
  'paymentRequests.useLimit',
  'paymentRequests.acceptsCard',
  'paymentRequests.acceptsKestrel',
  'paymentRequests.expiresAt',
  'paymentRequests.createdAt',
  'accounts.accountNumber',
  'accounts.accountType',
  'accounts.accountHolderName',
  'accounts.businessName',
  'accounts.paymentRequestFeeFixedCents',
  'accounts.paymentRequestFeePercent',
  'accounts.moneyMovementLocked',
] as const;

function linksWithAccount(db: Db | Trx) {
  return db.selectFrom('paymentRequests').innerJoin('accounts', 'accounts.id', 'paymentRequests.accountId').select(linkColumns);
}

export function findLink(db: Db | Trx, id: string) {
  return linksWithAccount(db).where('paymentRequests.id', '=', id).executeTakeFirst();
}

export function findLinkByUrlId(db: Db | Trx, pRequestUrlId: string) {
  return linksWithAccount(db).where('paymentRequests.pRequestUrlId', '=', pRequestUrlId).executeTakeFirst();
}

export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLink>>>;

/**
 * A link by its public id with an Idempotency-Key's earlier use, in one statement (issue 21:
 * a link payment read the link, then the key, then the link again). The key's caller is the
 * link's own (`payment-request:<id>`: a card payer) unless one is given (a wallet payer's).
 */
export async function findLinkForAttempt(db: Db, pRequestUrlId: string, key: { caller?: string; key: string | undefined }) {
  const caller = key.caller ?? sql<string>`'payment-request:' || payment_requests.id::text`;
  const row = await linksWithAccount(db)
    .select([earlierUseColumn(caller, key.key, 'request_hash').as('earlierRequestHash'), earlierUseColumn(caller, key.key, 'response_body').as('earlierBodyText')])
    .where('paymentRequests.pRequestUrlId', '=', pRequestUrlId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { earlierRequestHash, earlierBodyText, ...link } = row;
  return { link, earlier: earlierUseOf(earlierRequestHash, earlierBodyText) };
}

/** A link whose account the user is linked to (account_users), else undefined. */
export function findOwnedLink(db: Db | Trx, userId: string, id: string) {
  return linksWithAccount(db)
    .where('paymentRequests.id', '=', id)
    .where(heldBy(userId, 'paymentRequests.accountId'))
    .executeTakeFirst();
}

/**
 * An account's links, newest first, on the (account_id, created_at DESC, id DESC) index. With
 * `after` (the id of the last one already shown) only the ones after it in that order: the
 * keyset is read from that row, so links sharing a timestamp are neither skipped nor repeated,
 * and an id of another account's link matches no row and yields an empty page.
 */
export function listLinks(db: Db, accountId: string, page: { limit: number; after?: string | undefined }) {
  let query = linksWithAccount(db).where('paymentRequests.accountId', '=', accountId);
  if (page.after) {
    query = query.where(
      sql<boolean>`(payment_requests.created_at, payment_requests.id) < (SELECT last.created_at, last.id FROM payment_requests last WHERE last.id = ${page.after} AND last.account_id = ${accountId})`,
    );
  }
  return query.orderBy('paymentRequests.createdAt', 'desc').orderBy('paymentRequests.id', 'desc').limit(page.limit).execute();
}

/** The list page's counters over all of an account's links and their payments, counted by the database. */
export async function countAccountLinks(db: Db, accountId: string): Promise<{ total: number; active: number; payments: number; refundCount: number; refundedCents: number }> {
  const { rows } = await sql<{ total: number; active: number; payments: number; refundCount: number; refundedCents: string }>`
    SELECT count(*)::integer AS total,
           (count(*) FILTER (WHERE status = 'active'))::integer AS active,
           (SELECT count(*) FROM payment_request_payments WHERE account_id = ${accountId})::integer AS payments,
           refunded.count::integer AS "refundCount",
           refunded.cents::text AS "refundedCents"
      FROM payment_requests,
           (SELECT count(*) AS count, COALESCE(sum(amount_cents), 0) AS cents
              FROM refunds
             WHERE account_id = ${accountId} AND link_payment_id IS NOT NULL AND status = 'succeeded') AS refunded
     WHERE payment_requests.account_id = ${accountId}
     GROUP BY refunded.count, refunded.cents`.execute(db);
  const row = rows[0];
  return row ? { ...row, refundedCents: Number(row.refundedCents) } : { total: 0, active: 0, payments: 0, refundCount: 0, refundedCents: 0 };
}

/** How many successful payments each link has taken. */
export async function paymentCounts(db: Db, linkIds: string[]): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('paymentRequestPayments')
    .select(['paymentRequestId', (eb) => eb.fn.countAll<string>().as('count')])
    .where('paymentRequestId', 'in', linkIds)
    .groupBy('paymentRequestId')
    .execute();
  return new Map(rows.map((row) => [row.paymentRequestId, Number(row.count)]));
}

/** How many refunds of each link's payments succeeded, and their sum (the list's Total Refund). */
export async function refundTotalsByLink(db: Db, linkIds: string[]): Promise<Map<string, { count: number; cents: number }>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('refunds')
    .innerJoin('paymentRequestPayments', 'paymentRequestPayments.id', 'refunds.linkPaymentId')
    .select(['paymentRequestPayments.paymentRequestId', (eb) => eb.fn.countAll<string>().as('count'), (eb) => eb.fn.sum<string>('refunds.amountCents').as('cents')])
    .where('paymentRequestPayments.paymentRequestId', 'in', linkIds)
    .where('refunds.status', '=', 'succeeded')
    .groupBy('paymentRequestPayments.paymentRequestId')
    .execute();
  return new Map(rows.map((row) => [row.paymentRequestId, { count: Number(row.count), cents: Number(row.cents) }]));
}

/** The failed attempts of the links, newest first. */
export function linkErrorsOf(db: Db, linkIds: string[]) {
  if (linkIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('paymentRequestErrors')
    .selectAll()
    .where('paymentRequestId', 'in', linkIds)
    .orderBy('errorAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export type LinkErrorRow = Awaited<ReturnType<typeof linkErrorsOf>>[number];

export interface ErrorSource {
  brand: string | null;
  type: string | null;
  number: string | null;
}

export async function insertLinkError(db: Db, linkId: string, code: string, message: string, source: ErrorSource): Promise<void> {
  await db
    .insertInto('paymentRequestErrors')
    .values({ paymentRequestId: linkId, errorCode: code, errorMessage: message, sourceBrand: source.brand, sourceType: source.type, sourceNumberMasked: source.number })
    .execute();
}

/*
 * A link's uses. use_limit is the number of uses REMAINING (while is_use_limit is on) and is
 * spent only when a payment is recorded; held_uses counts the uses held by card attempts in
 * flight (payment_request_holds). A use can be held or taken only while use_limit > held_uses,
 * by one conditional UPDATE of the link's row: concurrent payers queue on the row and
 * PostgreSQL re-checks the condition on the row as the previous one left it, so at most
 * use_limit payments go through however many race, and an owner's new limit counts the
 * holds in flight. A held use is spent, or a wallet payment's use taken, by the collect
 * pipeline's database step (db/functions/collect_post.sql), with the same conditions.
 */

/** The link still takes payments now (active, not expired) and has a use that is neither spent nor held. */
const payableNow = sql<boolean>`status = 'active' AND (expires_at IS NULL OR expires_at > now()) AND (NOT is_use_limit OR use_limit > held_uses)`;

/**
 * Holds one use of the link for a card attempt until `expiresAt`, in one statement, and
 * answers the hold and the link's declined card attempts in the last hour (for its cap); or
 * undefined when no use can be held now (the caller looks up why).
 */
export async function holdUse(db: Db, linkId: string, expiresAt: Date): Promise<{ holdId: string; recentDeclines: number } | undefined> {
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  const { rows } = await sql<{ holdId: string; recentDeclines: number }>`
    WITH taken AS (
      UPDATE payment_requests SET held_uses = held_uses + 1 WHERE id = ${linkId} AND ${payableNow} RETURNING id
    )
    INSERT INTO payment_request_holds (payment_request_id, expires_at)
    SELECT id, ${expiresAt} FROM taken
    RETURNING id AS hold_id,
      (SELECT count(*) FROM payment_request_errors e
        WHERE e.payment_request_id = ${linkId} AND e.error_at > ${hourAgo} AND e.error_code IN (${sql.join(DECLINE_CODES)}))::integer AS recent_declines`.execute(db);
  return rows[0];
}

/** Gives back a held use (a declined or voided charge); a hold already gone (spent, swept) gives back nothing. */
export async function releaseHold(db: Db, holdId: string): Promise<void> {
  await sql`
    WITH gone AS (DELETE FROM payment_request_holds WHERE id = ${holdId} RETURNING payment_request_id)
    UPDATE payment_requests p SET held_uses = p.held_uses - 1 FROM gone WHERE p.id = gone.payment_request_id`.execute(db);
}

/**
 * Gives back the uses of the link's holds that expired: their attempts crashed (or the
 * process died) between holding the use and recording the payment. Answers how many.
 * Concurrent sweeps delete each hold once, so a use is never given back twice.
 */
export async function sweepExpiredHolds(db: Db, linkId: string): Promise<number> {
  const { rows } = await sql<{ released: number }>`
    WITH gone AS (
      DELETE FROM payment_request_holds WHERE payment_request_id = ${linkId} AND expires_at <= now() RETURNING payment_request_id
    ), released AS (
      UPDATE payment_requests p SET held_uses = p.held_uses - (SELECT count(*) FROM gone)::integer
       WHERE p.id = ${linkId} AND EXISTS (SELECT 1 FROM gone)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone)::integer AS released`.execute(db);
  return rows[0]?.released ?? 0;
}

const linkPaymentColumns = [
  'paymentRequestPayments.id',
  'paymentRequestPayments.paymentRequestId',
  'paymentRequestPayments.accountId',
  'paymentRequestPayments.transactionId',
  'paymentRequestPayments.currency',
  'paymentRequestPayments.amountCents',
  'paymentRequestPayments.feeCents',
  'paymentRequestPayments.sourceType',
  'paymentRequestPayments.sourceBrand',
  'paymentRequestPayments.sourceFirst6',
  'paymentRequestPayments.sourceLast4',
  'paymentRequestPayments.sourceLength',
  'paymentRequestPayments.payerEmail',
  'paymentRequestPayments.reference',
  'paymentRequestPayments.createdAt',
  'paymentRequestPayments.refundReservedCents',
  'paymentRequests.pRequestUrlId',
] as const;

export const LINK_PAYMENT_LIST_LIMIT = 500;

/** Link payments, newest first: of one link, or into any of the given accounts. */
export function listLinkPayments(db: Db, where: { linkId: string } | { accountIds: string[] }) {
  let query = db
    .selectFrom('paymentRequestPayments')
    .innerJoin('paymentRequests', 'paymentRequests.id', 'paymentRequestPayments.paymentRequestId')
    .select(linkPaymentColumns);
  if ('linkId' in where) query = query.where('paymentRequestPayments.paymentRequestId', '=', where.linkId);
  else if (where.accountIds.length === 0) return Promise.resolve([]);
  else query = query.where('paymentRequestPayments.accountId', 'in', where.accountIds);
  return query.orderBy('paymentRequestPayments.createdAt', 'desc').orderBy('paymentRequestPayments.id').limit(LINK_PAYMENT_LIST_LIMIT).execute();
}

export type LinkPaymentRow = Awaited<ReturnType<typeof listLinkPayments>>[number];

/** Whether a payment through the link was paid by the charge with this processor reference (its ledger transaction names it). */
export async function linkChargeRecorded(db: Db, linkId: string, processorReference: string): Promise<boolean> {
  const row = await db
    .selectFrom('paymentRequestPayments')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'paymentRequestPayments.ledgerTransactionId')
    .select('paymentRequestPayments.id')
    .where('paymentRequestPayments.paymentRequestId', '=', linkId)
    .where(sql<string>`ledger_transactions.metadata->>'processorReference'`, '=', processorReference)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many payments an account received through its payment links (each one is a paid one): a subquery for the dashboard. */
export function countAccountLinkPaymentsQuery(db: Db, accountId: string | Expression<string>) {
  return db.selectFrom('paymentRequestPayments').select((eb) => eb.fn.countAll<number>().as('count')).where('accountId', '=', accountId);
}

/** Link payments with their link, for the payer's receipt and the owner's "you got paid" notice (modules/notifications). */
export function linkPaymentsForNotice(db: Db | Trx, linkPaymentIds: readonly string[]) {
  if (linkPaymentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('paymentRequestPayments')
    .innerJoin('paymentRequests', 'paymentRequests.id', 'paymentRequestPayments.paymentRequestId')
    .select([
      ...linkPaymentColumns,
      'paymentRequestPayments.cardHolderName',
      'paymentRequests.id as linkId',
      'paymentRequests.paymentPurpose',
      'paymentRequests.reference as linkReference',
    ])
    .where('paymentRequestPayments.id', 'in', linkPaymentIds)
    .execute();
}
export type LinkPaymentNoticeRow = Awaited<ReturnType<typeof linkPaymentsForNotice>>[number];

/**
 * Every link's payment events for the operator's chart, in the shape of the payments module's
 * `PaymentEvents`: each link payment (paid when recorded, at created_at) and each refused
 * attempt kept on a link, in the link's currency.
 */
export function linkPaymentEvents(period: ChartPeriod) {
  return sql`
    SELECT lp.currency, lp.created_at AS at, lp.amount_cents AS paid_cents, 1 AS paid, 0 AS failed
    FROM payment_request_payments lp
    WHERE lp.created_at >= ${period.start} AND lp.created_at < ${period.end}
    UNION ALL
    SELECT pr.currency, le.error_at, 0, 0, 1
    FROM payment_request_errors le JOIN payment_requests pr ON pr.id = le.payment_request_id
    WHERE le.error_at >= ${period.start} AND le.error_at < ${period.end}`;
}

import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { earlierUseColumn, earlierUseOf, type EarlierUse } from '../../http/idempotency.ts';
import { asCents, centsToMajor, type PaymentListStatus } from '@kestrel/shared';
import { DECLINE_CODES } from './card-processor.ts';

const paymentColumns = [
  'payments.id',
  'payments.storeId',
  'payments.accountId',
  'payments.urlId',
  'payments.orderId',
  'payments.currency',
  'payments.amountCents',
  'payments.feeCents',
  'payments.customerName',
  'payments.customerEmail',
  'payments.customerPhone',
  'payments.customerAddress',
  'payments.productName',
  'payments.cancelUrl',
  'payments.valueA',
  'payments.paymentStatus',
  'payments.paymentSourceType',
  'payments.sourceBrand',
  'payments.sourceFirst6',
  'payments.sourceLast4',
  'payments.sourceLength',
  'payments.sourceExpiresIn',
  'payments.billingInfo',
  'payments.transactionId',
  'payments.paidAt',
  'payments.createdAt',
  'payments.attemptLeaseUntil',
  'payments.paidLedgerTransactionId',
  'payments.refundReservedCents',
  'stores.storeId as publicStoreId',
  'stores.storeName',
  'stores.callbackUrl',
  'stores.storeKeyEncrypted',
  'stores.logoStoredName',
  'accounts.accountNumber',
  'accounts.gatewayFeeFixedCents',
  'accounts.gatewayFeePercent',
] as const;

function paymentsWithStore(db: Db | Trx) {
  return db
    .selectFrom('payments')
    .innerJoin('stores', 'stores.id', 'payments.storeId')
    .innerJoin('accounts', 'accounts.id', 'payments.accountId')
    .select(paymentColumns);
}

export function findPayment(db: Db | Trx, paymentId: string) {
  return paymentsWithStore(db).where('payments.id', '=', paymentId).executeTakeFirst();
}
export function findPaymentByUrlId(db: Db | Trx, urlId: string) {
  return paymentsWithStore(db).where('payments.urlId', '=', urlId).executeTakeFirst();
}

export type PaymentRow = NonNullable<Awaited<ReturnType<typeof findPayment>>>;

export const PAYMENT_LIST_LIMIT = 500;

/** A page of a payments list: keyset after the payment `after`, and the store tab's search and filters. */
export interface PaymentListPage {
  limit?: number | undefined;
  after?: string | undefined;
  /** An order ID, a customer e-mail (any case) or a payment ID, matched exactly. */
  search?: string | undefined;
  status?: PaymentListStatus | undefined;
  /** UTC days, YYYY-MM-DD, both included. */
  from?: string | undefined;
  to?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hasErrors = sql<boolean>`EXISTS (SELECT 1 FROM payment_errors pe WHERE pe.payment_id = payments.id)`;

/**
 * Payments into an account or a store, newest first on its (…, created_at, id) index. The
 * keyset is read from the row `after` within the same account or store, so rows that share a
 * timestamp are neither skipped nor repeated, and a cursor from elsewhere answers an empty page.
 */
export function listPayments(db: Db, where: { accountId: string } | { storeId: string }, page: PaymentListPage = {}) {
  const [column, owner] = 'accountId' in where ? (['account_id', where.accountId] as const) : (['store_id', where.storeId] as const);
  let query = paymentsWithStore(db).where(sql<boolean>`payments.${sql.raw(column)} = ${owner}`);
  if (page.after) {
    const after = UUID.test(page.after) ? page.after : null;
    query = query.where(
      sql<boolean>`(payments.created_at, payments.id) < (SELECT last.created_at, last.id FROM payments last WHERE last.id = ${after}::uuid AND last.${sql.raw(column)} = ${owner})`,
    );
  }
  if (page.search) {
    const search = page.search;
    query = query.where((eb) =>
      eb.or([
        eb('payments.orderId', '=', search),
        eb(eb.fn('lower', ['payments.customerEmail']), '=', search.toLowerCase()),
        ...(UUID.test(search) ? [eb('payments.id', '=', search)] : []),
      ]),
    );
  }
  if (page.status === 'success') query = query.where('payments.paymentStatus', '=', 'success');
  if (page.status === 'initiate') query = query.where('payments.paymentStatus', '<>', 'success').where(sql<boolean>`NOT ${hasErrors}`);
  if (page.status === 'failed') query = query.where('payments.paymentStatus', '<>', 'success').where(hasErrors);
  if (page.from) query = query.where(sql<boolean>`payments.created_at >= ${page.from}::date`);
  if (page.to) query = query.where(sql<boolean>`payments.created_at < ${page.to}::date + 1`);
  return query
    .orderBy('payments.createdAt', 'desc')
    .orderBy('payments.id', 'desc')
    .limit(page.limit ?? PAYMENT_LIST_LIMIT)
    .execute();
}

/** The list's counters over every payment of the account or store (not a page of them), in one statement. */
export async function countPayments(db: Db, where: { accountId: string } | { storeId: string }) {
  const column = 'accountId' in where ? 'account_id' : 'store_id';
  const owner = 'accountId' in where ? where.accountId : where.storeId;
  const { rows } = await sql<{ all: string; succeeded: string; initiated: string; failed: string; refundCount: string; refundedCents: string }>`
    SELECT count(*) AS "all",
           count(*) FILTER (WHERE payment_status = 'success') AS succeeded,
           count(*) FILTER (WHERE payment_status <> 'success' AND NOT ${hasErrors}) AS initiated,
           count(*) FILTER (WHERE payment_status <> 'success' AND ${hasErrors}) AS failed,
           (SELECT count(*) FROM refunds r WHERE r.${sql.raw(column)} = ${owner} AND r.payment_id IS NOT NULL AND r.status = 'succeeded') AS refund_count,
           (SELECT COALESCE(SUM(r.amount_cents), 0) FROM refunds r WHERE r.${sql.raw(column)} = ${owner} AND r.payment_id IS NOT NULL AND r.status = 'succeeded') AS refunded_cents
    FROM payments WHERE ${sql.raw(column)} = ${owner}`.execute(db);
  const row = rows[0]!;
  return {
    all: Number(row.all),
    succeeded: Number(row.succeeded),
    initiated: Number(row.initiated),
    failed: Number(row.failed),
    refundCount: Number(row.refundCount),
    refundedAmount: centsToMajor(asCents(Number(row.refundedCents))),
  };
}

export function paymentErrorsOf(db: Db | Trx, paymentIds: string[]) {
  if (paymentIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('paymentErrors').selectAll().where('paymentId', 'in', paymentIds).orderBy('errorAt').orderBy('id').execute();
}

/** What an attempt to pay a payment needs to know, from one statement (see readPaymentForAttempt). */
export interface PaymentAttemptRead {
  /** The payment as findPayment reads it (the statement's snapshot: from before its own lease). */
  payment: PaymentRow;
  storeStatus: string;
  /** The idempotency key's stored request hash and answer, when the key was used before. */
  earlier: EarlierUse | undefined;
}

/** A card attempt's read, with whether its statement took the lease and the decline counts. */
export interface PaymentCardHold extends PaymentAttemptRead {
  leased: boolean;
  paymentDeclines: number;
  storeDeclines: number;
}

interface AttemptKey {
  paymentId: string;
  caller: string;
  key: string | undefined;
}

/**
 * An attempt's first read in one statement (issue 21: it was four): the payment with its
 * store (for the suspended store's refusal) and the idempotency key's earlier answer.
 * Answers undefined for no such payment.
 */
export async function readPaymentForAttempt(db: Db, key: AttemptKey): Promise<PaymentAttemptRead | undefined> {
  const row = await paymentsWithStore(db)
    .select(['stores.status as storeStatus', earlierUseColumn(key.caller, key.key, 'request_hash').as('earlierRequestHash'), earlierUseColumn(key.caller, key.key, 'response_body').as('earlierBodyText')])
    .where('payments.id', '=', key.paymentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { storeStatus, earlierRequestHash, earlierBodyText, ...payment } = row;
  return { payment, storeStatus, earlier: earlierUseOf(earlierRequestHash, earlierBodyText) };
}

/**
 * A card attempt's database step before the charge, in one statement (issue 21: the pay step
 * was five reads and a write before the card was charged): readPaymentForAttempt's read plus
 * the decline counts, and the attempt's lease taken — only on an unpaid payment with no
 * attempt in progress (or a lease that ran out, e.g. after a crash), of a store that is not
 * suspended, under both decline caps, and when the key is new. The caller reads why no lease
 * was taken from the rest of the row.
 */
export async function holdPaymentForCard(
  db: Db,
  hold: AttemptKey & { leaseUntil: Date; now: Date; declinesSince: Date; maxPaymentDeclines: number; maxStoreDeclines: number },
): Promise<PaymentCardHold | undefined> {
  const declineCodes = sql.join(DECLINE_CODES.map((code) => sql`${code}`));
  const paymentDeclines = sql<number>`(SELECT count(*) FROM payment_errors pe WHERE pe.payment_id = ${hold.paymentId}::uuid AND pe.error_code IN (${declineCodes}))`;
  const storeDeclines = sql<number>`(SELECT count(*) FROM payment_errors pe WHERE pe.store_id = payments.store_id AND pe.error_at > ${hold.declinesSince} AND pe.error_code IN (${declineCodes}))`;
  const row = await db
    .with('leased', (qc) =>
      qc
        .updateTable('payments')
        .set({ attemptLeaseUntil: hold.leaseUntil })
        .where('id', '=', hold.paymentId)
        .where('paymentStatus', '=', 'initiate')
        .where((eb) => eb.or([eb('attemptLeaseUntil', 'is', null), eb('attemptLeaseUntil', '<', hold.now)]))
        .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM stores s WHERE s.id = payments.store_id AND s.status = 'Suspended')`)
        .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.caller = ${hold.caller} AND k.idempotency_key = ${hold.key ?? null})`)
        .where(sql<boolean>`${paymentDeclines} < ${hold.maxPaymentDeclines} AND ${storeDeclines} < ${hold.maxStoreDeclines}`)
        .returning('id'),
    )
    .selectFrom('payments')
    .innerJoin('stores', 'stores.id', 'payments.storeId')
    .innerJoin('accounts', 'accounts.id', 'payments.accountId')
    .select(paymentColumns)
    .select([
      'stores.status as storeStatus',
      earlierUseColumn(hold.caller, hold.key, 'request_hash').as('earlierRequestHash'),
      earlierUseColumn(hold.caller, hold.key, 'response_body').as('earlierBodyText'),
      sql<boolean>`EXISTS (SELECT 1 FROM leased)`.as('leased'),
      paymentDeclines.as('paymentDeclines'),
      storeDeclines.as('storeDeclines'),
    ])
    .where('payments.id', '=', hold.paymentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { storeStatus, earlierRequestHash, earlierBodyText, leased, paymentDeclines: ofPayment, storeDeclines: ofStore, ...payment } = row;
  return { payment, storeStatus, earlier: earlierUseOf(earlierRequestHash, earlierBodyText), leased, paymentDeclines: Number(ofPayment), storeDeclines: Number(ofStore) };
}

/** Keeps a refused attempt on the payment (masked source only), with its code so declines can be counted. */
export async function insertPaymentError(
  db: Db | Trx,
  error: { paymentId: string; storeId: string; code: string; message: string; source: { brand: string | null; type: string; number: string } },
): Promise<void> {
  await db
    .insertInto('paymentErrors')
    .values({
      paymentId: error.paymentId,
      storeId: error.storeId,
      errorCode: error.code,
      errorMessage: error.message,
      sourceBrand: error.source.brand,
      sourceType: error.source.type,
      sourceNumberMasked: error.source.number,
    })
    .execute();
}

export async function releaseLease(db: Db | Trx, paymentId: string): Promise<void> {
  await db.updateTable('payments').set({ attemptLeaseUntil: null }).where('id', '=', paymentId).execute();
}

/** Whether the payment was paid by the charge with this processor reference (its ledger transaction names it). */
export async function paymentChargeRecorded(db: Db, paymentId: string, processorReference: string): Promise<boolean> {
  const row = await db
    .selectFrom('payments')
    .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'payments.paidLedgerTransactionId')
    .select('payments.id')
    .where('payments.id', '=', paymentId)
    .where(sql<string>`ledger_transactions.metadata->>'processorReference'`, '=', processorReference)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Paid gateway payments with their store, for the customer's receipt and the owner's "you got
 * paid" notice (modules/notifications). A payment not (or no longer) paid answers no row.
 */
export function paidPaymentsForNotice(db: Db | Trx, paymentIds: readonly string[]) {
  if (paymentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('payments')
    .innerJoin('stores', 'stores.id', 'payments.storeId')
    .select([
      'payments.id',
      'payments.accountId',
      'payments.orderId',
      'payments.currency',
      'payments.amountCents',
      'payments.feeCents',
      'payments.customerName',
      'payments.customerEmail',
      'payments.productName',
      'payments.paymentSourceType',
      'payments.sourceBrand',
      'payments.sourceLast4',
      'payments.transactionId',
      'payments.paidAt',
      'stores.storeId as publicStoreId',
      'stores.storeName',
      'stores.notifyOnPayment',
    ])
    .where('payments.id', 'in', paymentIds)
    .where('payments.paymentStatus', '=', 'success')
    .execute();
}
export type PaidPaymentNoticeRow = Awaited<ReturnType<typeof paidPaymentsForNotice>>[number];

/** The account's latest `limit` gateway payments, newest first, with their stores' names. */
export function recentPaymentsOf(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('payments')
    .innerJoin('stores', 'stores.id', 'payments.storeId')
    .select(['payments.urlId', 'payments.orderId', 'stores.storeName', 'payments.currency', 'payments.amountCents', 'payments.paymentStatus', 'payments.createdAt'])
    .where('payments.accountId', '=', accountId)
    .orderBy('payments.createdAt', 'desc')
    .limit(limit)
    .execute();
}

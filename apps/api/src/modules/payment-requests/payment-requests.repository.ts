import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

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

/** A link whose account the user is linked to (account_users), else undefined. */
export function findOwnedLink(db: Db | Trx, userId: string, id: string) {
  return linksWithAccount(db)
    .where('paymentRequests.id', '=', id)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('accountUsers').select('accountUsers.accountId').whereRef('accountUsers.accountId', '=', 'paymentRequests.accountId').where('accountUsers.userId', '=', userId),
      ),
    )
    .executeTakeFirst();
}

export const LINK_LIST_LIMIT = 500;

export function listLinks(db: Db, accountId: string) {
  return linksWithAccount(db)
    .where('paymentRequests.accountId', '=', accountId)
    .orderBy('paymentRequests.createdAt', 'desc')
    .orderBy('paymentRequests.id')
    .limit(LINK_LIST_LIMIT)
    .execute();
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

export async function insertLinkError(db: Db, linkId: string, message: string, source: ErrorSource): Promise<void> {
  await db
    .insertInto('paymentRequestErrors')
    .values({ paymentRequestId: linkId, errorMessage: message, sourceBrand: source.brand, sourceType: source.type, sourceNumberMasked: source.number })
    .execute();
}

/**
 * Takes one use of a link in one conditional UPDATE: only an active, unexpired link with a
 * use left (or no limit). Concurrent payers queue on the row; once the last use is taken the
 * others' condition no longer holds, so the remaining count never goes below zero and at most
 * that many payments go through. Answers false when nothing was taken (the caller looks up why).
 */
export async function reserveUse(db: Db | Trx, linkId: string): Promise<boolean> {
  const row = await db
    .updateTable('paymentRequests')
    .set({ useLimit: sql<number | null>`CASE WHEN is_use_limit THEN use_limit - 1 ELSE use_limit END` })
    .where('id', '=', linkId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
    .where((eb) => eb.or([eb('isUseLimit', '=', false), eb('useLimit', '>', 0)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives back a use taken by reserveUse whose payment did not go through (a declined card). */
export async function giveBackUse(db: Db, linkId: string): Promise<void> {
  await db
    .updateTable('paymentRequests')
    .set({ useLimit: sql<number>`use_limit + 1` })
    .where('id', '=', linkId)
    .where('isUseLimit', '=', true)
    .execute();
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

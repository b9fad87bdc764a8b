import { randomBytes } from 'node:crypto';
import {
  asCents,
  centsToMajor,
  type CreatePaymentRequestAnswer,
  type CreatePaymentRequestBody,
  type LinkPaymentSourceQuery,
  type LinkPaymentView,
  type PaymentMethod,
  type PaymentRequestCounters,
  type PaymentRequestListQuery,
  type PaymentRequestStatus,
  type PaymentRequestView,
  type PublicPaymentRequestView,
  type UpdatePaymentRequestLimitBody,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { findOwnedAccount, heldAccountIds, isUuid } from '../../http/ownership.ts';
import { checkTpin } from '../accounts/tpin.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { refundsByRecord, refundSummary, type RefundRow } from '../payments/refund-views.ts';
import { feeTooHigh, isExpired, limitReached, linkFeeOf, linkNotFound } from './link-collect.ts';
import {
  countAccountLinks,
  findLinkByUrlId,
  findOwnedLink,
  linkErrorsOf,
  listLinkPayments,
  listLinks,
  paymentCounts,
  refundTotalsByLink,
  type LinkErrorRow,
  type LinkPaymentRow,
  type LinkRow,
} from './payment-requests.repository.ts';

export { payPaymentRequestByCard, payPaymentRequestByWallet, recordStandingLinkCharge } from './link-pay.service.ts';
/** What the dashboard reads of the links (its counters), so that no other module imports this module's repository. */
export { countAccountLinkPaymentsQuery } from './payment-requests.repository.ts';
// The operator's chart adds the links' payments to the stores' (modules/operator).
export { linkPaymentEvents } from './payment-requests.repository.ts';
/** The link payments' notices (modules/notifications) read them through this. */
export { linkPaymentsForNotice, type LinkPaymentNoticeRow } from './payment-requests.repository.ts';

/*
 * Payment-request links. The owner creates a link on one of their accounts; anyone holding
 * its address pays it by card (public) or from a Kestrel wallet they own (signed in, TPIN).
 * Paying a link is link-pay.service.ts, on the collect pipeline (link-collect.ts); this file
 * is the owner's side: create, list, turn on or off, set the use limit, and the views.
 */

export const paymentRequestUrl = (ctx: AppContext, pRequestUrlId: string) => `${ctx.config.publicUrl}/payment-request/${pRequestUrlId}`;


function methodsOf(link: Pick<LinkRow, 'acceptsCard' | 'acceptsKestrel'>): PaymentMethod[] {
  return [...(link.acceptsCard ? (['Card'] as const) : []), ...(link.acceptsKestrel ? (['Kestrel'] as const) : [])];
}

const major = (cents: number | null) => (cents === null ? null : centsToMajor(asCents(cents)));

function linkView(ctx: AppContext, link: LinkRow, transactions: number, errors: LinkErrorRow[], refunds = { count: 0, cents: 0 }): PaymentRequestView {
  return {
    _id: link.id,
    pRequestURL: paymentRequestUrl(ctx, link.pRequestUrlId),
    pRequestURLId: link.pRequestUrlId,
    status: link.status,
    accountNumber: link.accountNumber,
    paymentPurpose: link.paymentPurpose,
    customerName: link.customerName,
    customerEmail: link.customerEmail,
    customerPhone: link.customerPhone,
    reference: link.reference,
    amount: { type: link.amountType, currency: link.currency, value: major(link.amountCents) },
    minimumAmount: major(link.minimumAmountCents),
    maximumAmount: major(link.maximumAmountCents),
    isUseLimit: link.isUseLimit,
    useLimit: link.isUseLimit ? link.useLimit : null,
    paymentMethods: methodsOf(link),
    transactions,
    paymentErrors: errors.map((error) => ({
      errorMessage: error.errorMessage,
      errorSource: { brand: error.sourceBrand, type: error.sourceType, number: error.sourceNumberMasked },
      errorAt: error.errorAt.toISOString(),
    })),
    expiresAt: link.expiresAt ? link.expiresAt.toISOString() : null,
    createdAt: link.createdAt.toISOString(),
    refundCount: refunds.count,
    refundedAmount: centsToMajor(asCents(refunds.cents)),
  };
}

async function linkViews(ctx: AppContext, links: LinkRow[]): Promise<PaymentRequestView[]> {
  const ids = links.map((link) => link.id);
  const [counts, errors, refunds] = await Promise.all([paymentCounts(ctx.db, ids), linkErrorsOf(ctx.db, ids), refundTotalsByLink(ctx.db, ids)]);
  const errorsOf = new Map<string, LinkErrorRow[]>();
  for (const error of errors) errorsOf.set(error.paymentRequestId, [...(errorsOf.get(error.paymentRequestId) ?? []), error]);
  return links.map((link) => linkView(ctx, link, counts.get(link.id) ?? 0, errorsOf.get(link.id) ?? [], refunds.get(link.id)));
}

async function ownedLinkOr404(ctx: AppContext, callerId: string, id: string): Promise<LinkRow> {
  const link = isUuid(id) ? await findOwnedLink(ctx.db, callerId, id) : undefined;
  if (!link) throw linkNotFound();
  return link;
}

/**
 * POST /v1/payment-request/create: a new active link on one of the caller's accounts,
 * after its TPIN (counted, with lockout). A link whose fee would take its whole (fixed or
 * minimum) amount is refused before anything is stored.
 */
export async function createPaymentRequest(
  ctx: AppContext,
  callerId: string,
  body: CreatePaymentRequestBody,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: CreatePaymentRequestAnswer; replayed: boolean }> {
  // The caller is the token's user; a body naming someone else is refused like an unknown account.
  if (body.userId !== undefined && body.userId !== callerId) throw refuse('account_not_found');
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!account) throw refuse('account_not_found');
  const smallest = body.amount.type === 'fixed' ? body.amount.value : body.minimumAmount;
  if (smallest === null) throw new Error('the create schema lets no link through without its amount');
  if (linkFeeOf(account, smallest) >= smallest) throw feeTooHigh();

  const outcome = await runIdempotent(
    ctx.db,
    {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/payment-request/create',
      // The TPIN is left out of the stored request hash: a hash of 4 digits is easily reversed.
      body: { ...body, tpin: undefined, userId: callerId },
      statusCode: 201,
      beforeWork: () => checkTpin(ctx.db, ctx.config.secretKey, account.id, body.tpin, callerId, account),
    },
    async (trx): Promise<CreatePaymentRequestAnswer> => {
      const row = await trx
        .insertInto('paymentRequests')
        .values({
          accountId: account.id,
          createdBy: callerId,
          // 128 random bits: whoever holds the link can pay it, so it must not be guessable.
          pRequestUrlId: randomBytes(16).toString('base64url'),
          paymentPurpose: body.paymentPurpose,
          reference: body.reference,
          customerName: body.customerName ?? null,
          customerEmail: body.customerEmail ?? null,
          customerPhone: body.customerPhone ?? null,
          amountType: body.amount.type,
          currency: body.amount.currency,
          amountCents: body.amount.value,
          minimumAmountCents: body.minimumAmount,
          maximumAmountCents: body.maximumAmount,
          isUseLimit: body.isUseLimit,
          useLimit: body.isUseLimit ? body.useLimit : null,
          acceptsCard: body.paymentMethods.includes('Card'),
          acceptsKestrel: body.paymentMethods.includes('Kestrel'),
          expiresAt: body.expiresAt,
        })
        .returning(['id', 'pRequestUrlId'])
        .executeTakeFirstOrThrow();
      await recordActivity(trx, account.id, 'Payment request created', `"${body.paymentPurpose}" (${body.reference})`);
      await recordAudit(trx, { actorUserId: callerId, action: 'payment_request.created', subjectType: 'payment_request', subjectId: row.id, ip });
      return { _id: row.id, pRequestURLId: row.pRequestUrlId, pRequestURL: paymentRequestUrl(ctx, row.pRequestUrlId) };
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}

/** Without `limit`, the list answers the spec's whole list, up to this many links. */
const WHOLE_LIST_LIMIT = 500;

/** GET /v1/payment-request/account/{accountNumber}?limit&cursor: one of the caller's accounts' links, newest first, a page at a time. */
export async function listPaymentRequests(ctx: AppContext, callerId: string, accountNumber: string, page: PaymentRequestListQuery = {}): Promise<PaymentRequestView[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw refuse('account_not_found');
  return linkViews(ctx, await listLinks(ctx.db, account.id, { limit: page.limit ?? WHOLE_LIST_LIMIT, after: page.cursor }));
}

/** GET /v1/payment-request/account/{accountNumber}/summary: the list page's counters, over every link of the account. */
export async function paymentRequestCountersOf(ctx: AppContext, callerId: string, accountNumber: string): Promise<PaymentRequestCounters> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw refuse('account_not_found');
  const { refundedCents, ...counts } = await countAccountLinks(ctx.db, account.id);
  return { ...counts, refundedAmount: centsToMajor(asCents(refundedCents)) };
}

/** GET /v1/payment-request/{id}: one of the caller's links. */
export async function getPaymentRequest(ctx: AppContext, callerId: string, id: string): Promise<PaymentRequestView> {
  return (await linkViews(ctx, [await ownedLinkOr404(ctx, callerId, id)]))[0]!;
}

/** PATCH /v1/payment-request/update/{id}: turns a link on or off. */
export async function updatePaymentRequestStatus(ctx: AppContext, callerId: string, id: string, status: PaymentRequestStatus, ip: string): Promise<PaymentRequestView> {
  const link = await ownedLinkOr404(ctx, callerId, id);
  await inTransaction(ctx.db, async (trx) => {
    await trx.updateTable('paymentRequests').set({ status, updatedAt: new Date() }).where('id', '=', link.id).execute();
    await recordAudit(trx, { actorUserId: callerId, action: 'payment_request.status', subjectType: 'payment_request', subjectId: link.id, ip, details: { before: link.status, after: status } });
  });
  return getPaymentRequest(ctx, callerId, link.id);
}

/**
 * PATCH /v1/payment-request/limit/update/{id}: sets the uses remaining (turning the limit on
 * when it was off, section 4), or turns the limit off with {isUseLimit: false}. Card attempts
 * in flight hold uses against the new count (held_uses): a declined one gives its hold back,
 * never a use on top of the new limit, and a successful one needs a use the new limit still has.
 */
export async function updatePaymentRequestLimit(ctx: AppContext, callerId: string, id: string, body: UpdatePaymentRequestLimitBody, ip: string): Promise<PaymentRequestView> {
  const link = await ownedLinkOr404(ctx, callerId, id);
  const next = body.isUseLimit === false ? { isUseLimit: false, useLimit: null } : { isUseLimit: true, useLimit: body.useLimit ?? 0 };
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .updateTable('paymentRequests')
      .set({ ...next, updatedAt: new Date() })
      .where('id', '=', link.id)
      .execute();
    await recordAudit(trx, {
      actorUserId: callerId,
      action: 'payment_request.limit',
      subjectType: 'payment_request',
      subjectId: link.id,
      ip,
      details: { before: { isUseLimit: link.isUseLimit, useLimit: link.useLimit }, after: next },
    });
  });
  return getPaymentRequest(ctx, callerId, link.id);
}

/** GET /v1/payment-request/link/{pRequestURLId} (public): what the pay page needs, nothing more. */
export async function getPublicPaymentRequest(ctx: AppContext, pRequestUrlId: string): Promise<PublicPaymentRequestView> {
  const link = await findLinkByUrlId(ctx.db, pRequestUrlId);
  if (!link) throw linkNotFound();
  return {
    pRequestURLId: link.pRequestUrlId,
    status: link.status,
    paymentPurpose: link.paymentPurpose,
    reference: link.reference,
    ownerName: link.accountType === 'business' && link.businessName ? link.businessName : link.accountHolderName,
    amount: { type: link.amountType, currency: link.currency, value: major(link.amountCents) },
    minimumAmount: major(link.minimumAmountCents),
    maximumAmount: major(link.maximumAmountCents),
    paymentMethods: methodsOf(link),
    isUseLimit: link.isUseLimit,
    limitReached: limitReached(link),
    expired: isExpired(link),
    expiresAt: link.expiresAt ? link.expiresAt.toISOString() : null,
  };
}

function linkPaymentView(row: LinkPaymentRow, refunds: RefundRow[] = []): LinkPaymentView {
  const number =
    row.sourceType === 'wallet'
      ? `****${row.sourceLast4 ?? ''}`
      : `${row.sourceFirst6 ?? ''}${'*'.repeat(Math.max(0, (row.sourceLength ?? 16) - 10))}${row.sourceLast4 ?? ''}`;
  return {
    id: row.id,
    pRequestId: row.paymentRequestId,
    pRequestURLId: row.pRequestUrlId,
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    fee: centsToMajor(asCents(row.feeCents)),
    source: { type: row.sourceType, brand: row.sourceType === 'card' ? row.sourceBrand : null, number },
    payerEmail: row.payerEmail,
    reference: row.reference,
    transactionId: row.transactionId,
    createdAt: row.createdAt.toISOString(),
    ...refundSummary({ amountCents: row.amountCents, refundReservedCents: row.refundReservedCents, paid: true }, refunds),
  };
}

/** Link payments with their refunds. */
async function linkPaymentViews(ctx: AppContext, rows: LinkPaymentRow[]): Promise<LinkPaymentView[]> {
  const refunds = await refundsByRecord(ctx.db, 'link', rows.map((row) => row.id));
  return rows.map((row) => linkPaymentView(row, refunds.get(row.id)));
}

/** GET /v1/payment/payment-request/{id}: the payments of one of the caller's links, newest first. */
export async function listPaymentsOfLink(ctx: AppContext, callerId: string, id: string): Promise<LinkPaymentView[]> {
  const link = await ownedLinkOr404(ctx, callerId, id);
  return linkPaymentViews(ctx, await listLinkPayments(ctx.db, { linkId: link.id }));
}

/**
 * GET /v1/payment/source?type=Link-payment: link payments into the caller's accounts (or
 * the one named by accountNumber), newest first.
 */
export async function listLinkPaymentsOfCaller(ctx: AppContext, callerId: string, query: LinkPaymentSourceQuery): Promise<LinkPaymentView[]> {
  let accountIds: string[];
  if (query.accountNumber !== undefined) {
    const account = await findOwnedAccount(ctx.db, { userId: callerId }, query.accountNumber);
    if (!account) throw refuse('account_not_found');
    accountIds = [account.id];
  } else {
    accountIds = await heldAccountIds(ctx.db, callerId);
  }
  return linkPaymentViews(ctx, await listLinkPayments(ctx.db, { accountIds }));
}

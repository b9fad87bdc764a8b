import { createHmac, randomBytes } from 'node:crypto';
import {
  asCents,
  asCurrency,
  centsToMajor,
  formatMoney,
  messages,
  paymentMessages,
  paymentRequestMessages as m,
  type Cents,
  type CreatePaymentRequestAnswer,
  type CreatePaymentRequestInput,
  type LinkPaymentSourceQuery,
  type LinkPaymentView,
  type PaymentMethod,
  type PaymentRequestStatus,
  type PaymentRequestView,
  type PayPaymentRequestByCardInput,
  type PayPaymentRequestByKestrelInput,
  type PublicPaymentRequestView,
  type UpdatePaymentRequestLimitInput,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { recordActivity } from '../activities/activities.repository.ts';
import { auditRow, recordAudit } from '../audit/audit.ts';
import { postTransaction, SYSTEM_ACCOUNTS } from '../ledger/ledger.service.ts';
import { voidUnlessRecorded } from '../payments/card-processor.ts';
import { checkCard, type CheckedCard } from '../payments/card-input.ts';
import { gatewayFeeCents } from '../payments/fees.ts';
import { cardProcessorOf, WALLET_BRAND } from '../payments/payments.service.ts';
import {
  findLink,
  findLinkByUrlId,
  findOwnedLink,
  giveBackUse,
  insertLinkError,
  linkChargeRecorded,
  linkErrorsOf,
  listLinkPayments,
  listLinks,
  paymentCounts,
  reserveUse,
  type ErrorSource,
  type LinkErrorRow,
  type LinkPaymentRow,
  type LinkRow,
} from './payment-requests.repository.ts';

/*
 * Payment-request links. The owner creates a link on one of their accounts; anyone holding
 * its address pays it by card (public) or from a Kestrel wallet they own (signed in, TPIN).
 * Each payment is one ledger transaction: card clearing (or the payer's wallet) pays the
 * owner's wallet the amount less the account's payment-request fee, fee revenue gets the fee.
 * A use limit is enforced by one conditional UPDATE per payment (reserveUse); refused
 * attempts are kept on the link (its 'Failed' tab).
 */

export const paymentRequestUrl = (ctx: AppContext, pRequestUrlId: string) => `${ctx.config.publicUrl}/payment-request/${pRequestUrlId}`;

const linkNotFound = () => notFound(m.notFound, 'payment_request_not_found');
const feeTooHigh = () => badRequest(paymentMessages.feeTooHigh, undefined, 'fee_too_high');

/** Refusals of a pay attempt on an existing link that the owner sees in the link's 'Failed' tab. */
const RECORDED_REFUSALS = new Set([
  'payment_request_disabled',
  'payment_request_expired',
  'payment_request_owner_locked',
  'limit_exceeded',
  'tpin_incorrect',
  'tpin_locked',
  'money_movement_locked',
  'insufficient_balance',
  'card_declined',
  'insufficient_funds',
  'incorrect_cvc',
]);

function feeOf(link: Pick<LinkRow, 'paymentRequestFeeFixedCents' | 'paymentRequestFeePercent'>, amountCents: number): number {
  return gatewayFeeCents(amountCents, link.paymentRequestFeeFixedCents, link.paymentRequestFeePercent);
}

function methodsOf(link: Pick<LinkRow, 'acceptsCard' | 'acceptsKestrel'>): PaymentMethod[] {
  return [...(link.acceptsCard ? (['Card'] as const) : []), ...(link.acceptsKestrel ? (['Kestrel'] as const) : [])];
}

function isExpired(link: Pick<LinkRow, 'expiresAt'>, now = new Date()): boolean {
  return link.expiresAt !== null && link.expiresAt <= now;
}

function limitReached(link: Pick<LinkRow, 'isUseLimit' | 'useLimit'>): boolean {
  return link.isUseLimit && (link.useLimit ?? 0) <= 0;
}

const major = (cents: number | null) => (cents === null ? null : centsToMajor(asCents(cents)));

/**
 * Why a link takes no payment now, in the order the pay page shows it (disabled, expired,
 * limit reached), or undefined when it does. An operator's lock on the receiving account
 * also stops payments into it.
 */
function refusalOf(link: LinkRow, now = new Date()): AppError | undefined {
  if (link.status !== 'active') return new AppError(403, 'payment_request_disabled', m.disabled);
  if (isExpired(link, now)) return new AppError(410, 'payment_request_expired', m.expired);
  if (link.moneyMovementLocked) return new AppError(423, 'payment_request_owner_locked', m.ownerLocked);
  if (limitReached(link)) return new AppError(409, 'limit_exceeded', m.limitExceeded);
  return undefined;
}

function linkView(ctx: AppContext, link: LinkRow, transactions: number, errors: LinkErrorRow[]): PaymentRequestView {
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
  };
}

async function linkViews(ctx: AppContext, links: LinkRow[]): Promise<PaymentRequestView[]> {
  const ids = links.map((link) => link.id);
  const [counts, errors] = await Promise.all([paymentCounts(ctx.db, ids), linkErrorsOf(ctx.db, ids)]);
  const errorsOf = new Map<string, LinkErrorRow[]>();
  for (const error of errors) errorsOf.set(error.paymentRequestId, [...(errorsOf.get(error.paymentRequestId) ?? []), error]);
  return links.map((link) => linkView(ctx, link, counts.get(link.id) ?? 0, errorsOf.get(link.id) ?? []));
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
  body: CreatePaymentRequestInput,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: CreatePaymentRequestAnswer; replayed: boolean }> {
  // The caller is the token's user; a body naming someone else is refused like an unknown account.
  if (body.userId !== undefined && body.userId !== callerId) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const smallest = body.amount.type === 'fixed' ? body.amount.value : body.minimumAmount;
  if (smallest === null) throw new Error('the create schema lets no link through without its amount');
  if (feeOf(account, smallest) >= smallest) throw feeTooHigh();

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

/** GET /v1/payment-request/account/{accountNumber}: one of the caller's accounts' links, newest first. */
export async function listPaymentRequests(ctx: AppContext, callerId: string, accountNumber: string): Promise<PaymentRequestView[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  return linkViews(ctx, await listLinks(ctx.db, account.id));
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
 * when it was off, section 4), or turns the limit off with {isUseLimit: false}. A card payment
 * in flight whose card is then declined gives its use back on top of the new count.
 */
export async function updatePaymentRequestLimit(ctx: AppContext, callerId: string, id: string, body: UpdatePaymentRequestLimitInput, ip: string): Promise<PaymentRequestView> {
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

async function linkByUrlIdOr404(ctx: AppContext, pRequestUrlId: string): Promise<LinkRow> {
  const link = await findLinkByUrlId(ctx.db, pRequestUrlId);
  if (!link) throw linkNotFound();
  return link;
}

/** The amount a payer may pay: exactly a fixed link's amount, or within a custom link's range. */
function payableAmount(link: LinkRow, amount: Cents): Cents {
  if (link.amountType === 'fixed') {
    const value = asCents(link.amountCents ?? 0);
    if (amount !== value) throw badRequest(m.amountMismatch(value), { amount: m.amountMismatch(value) }, 'amount_mismatch');
    return amount;
  }
  const minimum = asCents(link.minimumAmountCents ?? 0);
  const maximum = asCents(link.maximumAmountCents ?? 0);
  if (amount < minimum || amount > maximum) {
    throw badRequest(m.amountOutOfRange(minimum, maximum), { amount: m.amountOutOfRange(minimum, maximum) }, 'amount_out_of_range');
  }
  return amount;
}

function assertMethod(link: LinkRow, method: PaymentMethod): void {
  const accepted = method === 'Card' ? link.acceptsCard : link.acceptsKestrel;
  if (!accepted) throw badRequest(m.methodNotAllowed(method), undefined, 'method_not_allowed');
}

/** Re-reads the link and refuses it when it takes no payment now (disabled, expired, locked, limit reached). */
async function payableLink(ctx: AppContext, linkId: string): Promise<LinkRow> {
  const link = await findLink(ctx.db, linkId);
  if (!link) throw linkNotFound();
  const refusal = refusalOf(link);
  if (refusal) throw refusal;
  return link;
}

/**
 * Takes one use of the link, or throws the reason it takes no payment. With `trx` the use is
 * taken inside the caller's transaction (the wallet posting's), so a rollback gives it back.
 */
async function reserveOrRefuse(db: AppContext['db'] | Trx, linkId: string): Promise<void> {
  if (await reserveUse(db, linkId)) return;
  const link = await findLink(db, linkId);
  if (!link) throw linkNotFound();
  throw refusalOf(link) ?? new AppError(409, 'limit_exceeded', m.limitExceeded);
}

/** The receiving account, held FOR SHARE until commit: an operator's lock written since the read stops the payment. */
async function assertOwnerCanReceive(trx: Trx, accountId: string): Promise<void> {
  const owner = await trx.selectFrom('accounts').select('moneyMovementLocked').where('id', '=', accountId).forShare().executeTakeFirstOrThrow();
  if (owner.moneyMovementLocked) throw new AppError(423, 'payment_request_owner_locked', m.ownerLocked);
}

async function recordRefusal(ctx: AppContext, linkId: string, error: unknown, source: ErrorSource): Promise<void> {
  if (!(error instanceof AppError) || !RECORDED_REFUSALS.has(error.code)) return;
  await insertLinkError(ctx.db, linkId, error.message, source);
}

const cardSource = (card: CheckedCard): ErrorSource => ({ brand: card.brand, type: 'card', number: card.masked });
const walletSource = (accountNumber: string): ErrorSource => ({ brand: WALLET_BRAND, type: 'wallet', number: `****${accountNumber.slice(-4)}` });

export interface LinkPaid {
  transactionId: string;
  amount: number;
  currency: string;
  paymentId: string;
}

type LinkPaySource =
  | { kind: 'card'; card: CheckedCard; processorReference: string; body: PayPaymentRequestByCardInput }
  | { kind: 'wallet'; payer: { id: string; accountNumber: string; accountEmail: string }; userId: string; body: PayPaymentRequestByKestrelInput };

/**
 * The successful payment, in the caller's database transaction: the ledger transaction, the
 * link payment row, the owner's (and a wallet payer's) activity and an audit row.
 */
async function recordLinkPaid(trx: Trx, link: LinkRow, source: LinkPaySource, amountCents: Cents, feeCents: number): Promise<LinkPaid> {
  await assertOwnerCanReceive(trx, link.accountId);
  const currency = asCurrency(link.currency);
  const from = source.kind === 'card' ? { system: SYSTEM_ACCOUNTS.cardClearing } : { walletAccountId: source.payer.id };
  const sourceMetadata =
    source.kind === 'card'
      ? { brand: source.card.brand, last4: source.card.last4, processorReference: source.processorReference }
      : { payerAccountNumber: source.payer.accountNumber };
  let paymentId = '';
  const posted = await postTransaction(
    trx,
    {
      kind: 'payment_request',
      transactionFor: 'Payment Request',
      currency,
      amountCents,
      feeCents,
      createdBy: source.kind === 'wallet' ? source.userId : null,
      metadata: { paymentRequestId: link.id, pRequestURLId: link.pRequestUrlId, ...sourceMetadata },
      postings: [
        { party: from, amountCents: -amountCents },
        { party: { walletAccountId: link.accountId }, amountCents: amountCents - feeCents },
        ...(feeCents > 0 ? [{ party: { system: SYSTEM_ACCOUNTS.feeRevenue }, amountCents: feeCents }] : []),
      ],
    },
    {
      beforeBalances: async (posted) => {
        const sourceColumns =
          source.kind === 'card'
            ? {
                sourceType: 'card' as const,
                sourceBrand: source.card.brand,
                sourceFirst6: source.card.first6,
                sourceLast4: source.card.last4,
                sourceLength: source.card.digits.length,
                payerEmail: source.body.email,
                payerPhone: source.body.phone ?? null,
                cardHolderName: source.body.cardHolderName,
                countryOrRegion: source.body.countryOrRegion ?? null,
                billingInfo: source.body.billingInfo === undefined ? null : JSON.stringify(source.body.billingInfo),
              }
            : {
                sourceType: 'wallet' as const,
                sourceBrand: WALLET_BRAND,
                // Only the last 4 digits of the payer's account number are shown on the link's payments.
                sourceLast4: /\d{4}$/.exec(source.payer.accountNumber)?.[0] ?? null,
                sourceLength: source.payer.accountNumber.length,
                payerAccountId: source.payer.id,
                payerUserId: source.userId,
                payerEmail: source.body.email ?? source.payer.accountEmail,
              };
        const row = await trx
          .insertInto('paymentRequestPayments')
          .values({
            paymentRequestId: link.id,
            accountId: link.accountId,
            ledgerTransactionId: posted.id,
            transactionId: posted.transactionId,
            currency,
            amountCents,
            feeCents,
            reference: source.body.reference ?? null,
            ...sourceColumns,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        paymentId = row.id;
        const shown = formatMoney(amountCents, currency);
        await trx
          .insertInto('activities')
          .values([
            {
              accountId: link.accountId,
              name: 'Payment request paid',
              comment: `${shown} for "${link.paymentPurpose}" (fee ${formatMoney(asCents(feeCents), currency)}), ${posted.transactionId}`,
            },
            ...(source.kind === 'wallet'
              ? [{ accountId: source.payer.id, name: 'Payment sent', comment: `${shown} for "${link.paymentPurpose}" to ${link.accountNumber}, ${posted.transactionId}` }]
              : []),
          ])
          .execute();
        await trx
          .insertInto('auditLog')
          .values(
            auditRow({
              actorUserId: source.kind === 'wallet' ? source.userId : null,
              action: source.kind === 'card' ? 'payment_request.card_paid' : 'payment_request.wallet_paid',
              subjectType: 'payment_request',
              subjectId: link.id,
              details: { paymentId: row.id, amountCents, feeCents },
            }),
          )
          .execute();
      },
    },
  );
  return { transactionId: posted.transactionId, amount: centsToMajor(amountCents), currency, paymentId };
}

/**
 * POST /v1/payment-request/card/complete-payment/{pRequestURLId} (public). Bad input (method,
 * amount, card, fee) is refused before anything is stored. Then a use of the link is taken
 * (one conditional UPDATE, committed at once, so 50 payers racing for the last use get one
 * charge between them), the card is charged outside any database transaction, and the
 * payment recorded. A decline, or a charge that cannot be recorded, gives the use back (and
 * voids the charge); refusals land in the link's paymentErrors with the card masked.
 */
export async function payPaymentRequestByCard(ctx: AppContext, pRequestUrlId: string, body: PayPaymentRequestByCardInput, idempotencyKey: string | undefined) {
  const link = await linkByUrlIdOr404(ctx, pRequestUrlId);
  assertMethod(link, 'Card');
  const amountCents = payableAmount(link, body.amount);
  const card = checkCard(body);
  const processor = cardProcessorOf(ctx);
  const state: { reserved: boolean; reference?: string; fee?: number } = { reserved: false };
  // A charge that was not recorded is voided and its use given back; one recorded after all
  // (the error came after the commit) keeps both; one the books cannot tell about keeps both
  // for reconciliation (see voidUnlessRecorded).
  const undo = async () => {
    const reference = state.reference;
    state.reference = undefined;
    if (reference) {
      const outcome = await voidUnlessRecorded(processor, reference, () => linkChargeRecorded(ctx.db, link.id, reference), ctx.log);
      if (outcome !== 'voided') state.reserved = false;
    }
    if (state.reserved) {
      state.reserved = false;
      await giveBackUse(ctx.db, link.id);
    }
  };
  // The stored request hash must not let anyone recover the card: the number and CVC enter
  // it only through an HMAC keyed with the server secret.
  const cardMac = createHmac('sha256', ctx.config.secretKey).update(`${card.digits}\0${body.cvc}`).digest('base64url');
  try {
    const outcome = await runIdempotent(
      ctx.db,
      {
        caller: `payment-request:${link.id}`,
        key: idempotencyKey,
        route: 'POST /v1/payment-request/card/complete-payment',
        body: { ...body, amount: amountCents, number: undefined, cvc: undefined, card: cardMac },
        statusCode: 200,
        beforeWork: async () => {
          const fresh = await payableLink(ctx, link.id);
          const fee = feeOf(fresh, amountCents);
          if (fee >= amountCents) throw feeTooHigh();
          await reserveOrRefuse(ctx.db, link.id);
          state.reserved = true;
          const result = await processor.charge({
            number: card.digits,
            brand: card.brand,
            expMonth: card.expMonth,
            expYear: card.expYear,
            cvc: body.cvc,
            amountCents,
            currency: asCurrency(fresh.currency),
          });
          if (!result.approved) throw new AppError(402, result.code, result.message);
          state.reference = result.reference;
          state.fee = fee;
        },
      },
      (trx) => recordLinkPaid(trx, link, { kind: 'card', card, processorReference: state.reference!, body }, amountCents, state.fee!),
    );
    // A concurrent request with the same key won: this one's charge and use are not needed.
    if (outcome.replayed) await undo();
    return { answer: outcome.body, replayed: outcome.replayed };
  } catch (error) {
    // The first error is the answer; one while undoing (the database still down) is logged.
    await undo().catch((undoError: unknown) => ctx.log.error({ err: undoError, paymentRequestId: link.id }, 'could not give back a payment link use'));
    await recordRefusal(ctx, link.id, error, cardSource(card)).catch((recordError: unknown) => ctx.log.warn({ err: recordError }, 'could not record a refused link payment'));
    throw error;
  }
}

/**
 * POST /v1/payment-request/kestrel/complete-payment/{pRequestURLId}: the signed-in payer pays
 * from an account they own, with its TPIN (counted, with lockout) checked before any money
 * moves. The use is taken in the same database transaction as the wallet posting, so a
 * refused debit gives it back by rolling back.
 */
export async function payPaymentRequestByWallet(
  ctx: AppContext,
  callerId: string,
  pRequestUrlId: string,
  body: PayPaymentRequestByKestrelInput,
  idempotencyKey: string | undefined,
) {
  if (body.userId !== undefined && body.userId !== callerId) throw forbidden(m.userMismatch);
  const link = await linkByUrlIdOr404(ctx, pRequestUrlId);
  const payer = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!payer) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  assertMethod(link, 'Kestrel');
  const amountCents = payableAmount(link, body.amount);
  if (payer.id === link.accountId) throw badRequest(m.ownLink, undefined, 'own_link');
  const state: { fee?: number } = {};
  try {
    const outcome = await runIdempotent(
      ctx.db,
      {
        caller: `user:${callerId}`,
        key: idempotencyKey,
        route: 'POST /v1/payment-request/kestrel/complete-payment',
        // The TPIN is left out of the stored request hash: a hash of a few digits is easily reversed.
        body: { ...body, tpin: undefined, userId: callerId, amount: amountCents, paymentRequestId: link.id },
        statusCode: 200,
        beforeWork: async () => {
          // Refused before the TPIN is tried, so a link that cannot be paid costs no attempt.
          const fresh = await payableLink(ctx, link.id);
          const fee = feeOf(fresh, amountCents);
          if (fee >= amountCents) throw feeTooHigh();
          await checkTpin(ctx.db, ctx.config.secretKey, payer.id, body.tpin, callerId, payer);
          state.fee = fee;
        },
      },
      async (trx) => {
        // Decided again under the account's row lock, held to commit: a lock written since the check stops this payment.
        await assertTpinNotLocked(trx, payer.id);
        await reserveOrRefuse(trx, link.id);
        return recordLinkPaid(
          trx,
          link,
          { kind: 'wallet', payer: { id: payer.id, accountNumber: payer.accountNumber, accountEmail: payer.accountEmail }, userId: callerId, body },
          amountCents,
          state.fee!,
        );
      },
    );
    return { answer: outcome.body, replayed: outcome.replayed };
  } catch (error) {
    await recordRefusal(ctx, link.id, error, walletSource(payer.accountNumber));
    throw error;
  }
}

function linkPaymentView(row: LinkPaymentRow): LinkPaymentView {
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
  };
}

/** GET /v1/payment/payment-request/{id}: the payments of one of the caller's links, newest first. */
export async function listPaymentsOfLink(ctx: AppContext, callerId: string, id: string): Promise<LinkPaymentView[]> {
  const link = await ownedLinkOr404(ctx, callerId, id);
  return (await listLinkPayments(ctx.db, { linkId: link.id })).map(linkPaymentView);
}

/**
 * GET /v1/payment/source?type=Link-payment: link payments into the caller's accounts (or
 * the one named by accountNumber), newest first.
 */
export async function listLinkPaymentsOfCaller(ctx: AppContext, callerId: string, query: LinkPaymentSourceQuery): Promise<LinkPaymentView[]> {
  let accountIds: string[];
  if (query.accountNumber !== undefined) {
    const account = await findOwnedAccount(ctx.db, { userId: callerId }, query.accountNumber);
    if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
    accountIds = [account.id];
  } else {
    const rows = await ctx.db.selectFrom('accountUsers').select('accountId').where('userId', '=', callerId).execute();
    accountIds = rows.map((row) => row.accountId);
  }
  return (await listLinkPayments(ctx.db, { accountIds })).map(linkPaymentView);
}

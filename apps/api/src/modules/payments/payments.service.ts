import { createHmac, randomBytes } from 'node:crypto';
import {
  centsToMajor,
  formatMoney,
  paymentMessages,
  asCents,
  checkoutMessages,
  messages,
  type Cents,
  type CheckoutView,
  type KestrelPayBody,
  type CompleteCardBody,
  type Currency,
  type DirectPayBody,
  type PaymentResult,
  type PaymentView,
  type WebPayBody,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, isUniqueViolation, type Trx } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { auditRow } from '../audit/audit.ts';
import { queueCallback } from '../callbacks/outbox.ts';
import { signedRedirectUrl, type CallbackPayload } from '../callbacks/signing.ts';
import { postTransaction, SYSTEM_ACCOUNTS } from '../ledger/ledger.service.ts';
import { decryptStoreKey } from '../stores/store-key.ts';
import type { GatewayStore } from '../stores/store-key.guard.ts';
import { findOwnedStore } from '../stores/stores.repository.ts';
import { storeLogoUrl } from '../stores/stores.service.ts';
import { sandboxProcessor, voidUnlessRecorded, type CardProcessor } from './card-processor.ts';
import { checkCard, type CheckedCard } from './card-input.ts';
import { gatewayFeeCents } from './fees.ts';
import {
  findPayment,
  findPaymentByOrder,
  findPaymentByUrlId,
  leasePayment,
  listPayments,
  ownerFeeSettings,
  paymentChargeRecorded,
  paymentErrorsOf,
  releaseLease,
  type PaymentRow,
} from './payments.repository.ts';

/** The brand shown for a payment paid from a Kestrel wallet. */
export const WALLET_BRAND = 'Kestrel';

/** How long one card attempt holds a payment (a crashed attempt frees it after this). */
const ATTEMPT_LEASE_SECONDS = 60;

/** The card processor in use; the built-in sandbox until a real network is connected. */
export function cardProcessorOf(_ctx: AppContext): CardProcessor {
  return sandboxProcessor;
}

export const checkoutUrl = (ctx: AppContext, urlId: string) => `${ctx.config.publicUrl}/web-pay/${urlId}`;

function feeTooHigh(): AppError {
  return badRequest(paymentMessages.feeTooHigh, undefined, 'fee_too_high');
}

async function orderTaken(ctx: AppContext, store: GatewayStore, orderId: string): Promise<AppError | undefined> {
  const existing = await findPaymentByOrder(ctx.db, store.id, orderId);
  return existing ? conflict(paymentMessages.orderIdTaken(existing.id), 'order_id_taken', { orderId: paymentMessages.orderIdTaken(existing.id) }) : undefined;
}

interface CreatedPayment {
  paymentId: string;
  urlId: string;
  orderId: string;
  amount: number;
  currency: string;
  paymentStatus: 'initiate';
}

async function insertPayment(trx: Trx, store: GatewayStore, body: WebPayBody, amountCents: Cents): Promise<CreatedPayment> {
  const row = await trx
    .insertInto('payments')
    .values({
      storeId: store.id,
      accountId: store.accountId,
      // 128 random bits: the checkout address must not be guessable.
      urlId: randomBytes(16).toString('base64url'),
      orderId: body.orderId,
      currency: body.currency,
      amountCents,
      customerName: body.customerName,
      customerEmail: body.customerEmail,
      customerPhone: body.customerPhone,
      customerAddress: body.customerAddress,
      productName: body.productName,
      cancelUrl: body.cancelUrl,
      valueA: body.valueA ?? null,
    })
    .returning(['id', 'urlId'])
    .executeTakeFirstOrThrow();
  return { paymentId: row.id, urlId: row.urlId, orderId: body.orderId, amount: centsToMajor(amountCents), currency: body.currency, paymentStatus: 'initiate' };
}

/** Refuses, before anything is stored, an amount whose fee would take all of it. */
async function assertFeeFits(ctx: AppContext, accountId: string, amountCents: number): Promise<void> {
  const fees = await ownerFeeSettings(ctx.db, accountId);
  if (gatewayFeeCents(amountCents, fees.gatewayFeeFixedCents, fees.gatewayFeePercent) >= amountCents) throw feeTooHigh();
}

/**
 * POST /v1/payment/web-pay (and /redirect): a new payment waiting on the hosted checkout.
 * An orderId is unique per store (the database says so too); a second one is a 409 naming
 * the existing payment. With an Idempotency-Key a retry gets the first answer.
 */
export async function createPayment(ctx: AppContext, store: GatewayStore, body: WebPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  await assertFeeFits(ctx, store.accountId, amountCents);
  try {
    const outcome = await runIdempotent(
      ctx.db,
      {
        caller: `store:${store.id}`,
        key: idempotencyKey,
        route: 'POST /v1/payment/web-pay',
        body: { ...body, amount: amountCents },
        statusCode: 200,
        beforeWork: async () => {
          const taken = await orderTaken(ctx, store, body.orderId);
          if (taken) throw taken;
        },
      },
      (trx) => insertPayment(trx, store, body, amountCents),
    );
    return { payment: outcome.body, redirectUrl: checkoutUrl(ctx, outcome.body.urlId), replayed: outcome.replayed };
  } catch (error) {
    if (isUniqueViolation(error, 'payments_store_order_key')) throw (await orderTaken(ctx, store, body.orderId)) ?? error;
    throw error;
  }
}

function feeOf(payment: Pick<PaymentRow, 'amountCents' | 'gatewayFeeFixedCents' | 'gatewayFeePercent'>): number {
  return gatewayFeeCents(payment.amountCents, payment.gatewayFeeFixedCents, payment.gatewayFeePercent);
}

function payloadOf(payment: PaymentRow, status: CallbackPayload['paymentStatus'], tnxId: string | null): CallbackPayload {
  return { paymentStatus: status, tnxId, currency: payment.currency, amount: centsToMajor(asCents(payment.amountCents)), orderId: payment.orderId, paymentId: payment.id };
}

export interface CardPaymentAnswer {
  data: PaymentResult;
  redirectUrl: string;
}

/** A failed attempt: kept in paymentErrors (masked card only), the lease given back, the store told. */
async function recordFailedAttempt(ctx: AppContext, payment: PaymentRow, card: CheckedCard, message: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .insertInto('paymentErrors')
      .values({ paymentId: payment.id, errorMessage: message, sourceBrand: card.brand, sourceType: 'card', sourceNumberMasked: card.masked })
      .execute();
    await releaseLease(trx, payment.id);
    await queueCallback(trx, { storeId: payment.storeId, paymentId: payment.id, targetUrl: payment.callbackUrl, payload: payloadOf(payment, 'failed', null) });
  });
}

/** Where a paid payment's money came from. */
type PaidSource =
  | { kind: 'card'; card: CheckedCard; billingInfo: unknown; reference: string }
  | { kind: 'wallet'; payer: { id: string; accountNumber: string }; userId: string };

/**
 * The successful payment, in one database transaction: the ledger transaction (card
 * clearing, or the payer's wallet, pays the owner's wallet the amount less the fee, fee
 * revenue gets the fee), the payment marked paid with its source, the callback queued, an
 * activity and an audit row. The payment row is locked first and re-read: a paid payment (or,
 * for a wallet, one a card attempt holds) is refused here, and the unique
 * paid_ledger_transaction_id backs this up, so a payment is paid at most once.
 */
async function recordPaid(trx: Trx, ctx: AppContext, payment: PaymentRow, source: PaidSource, feeCents: number): Promise<CardPaymentAnswer> {
  const current = await trx.selectFrom('payments').select(['paymentStatus', 'attemptLeaseUntil']).where('id', '=', payment.id).forUpdate().executeTakeFirstOrThrow();
  if (current.paymentStatus === 'success') throw conflict(paymentMessages.alreadyPaid, 'already_paid');
  if (source.kind === 'wallet' && current.attemptLeaseUntil && current.attemptLeaseUntil > new Date()) throw conflict(paymentMessages.attemptInProgress, 'attempt_in_progress');
  const amountCents = asCents(payment.amountCents);
  const currency = payment.currency as Currency;
  const from = source.kind === 'card' ? { system: SYSTEM_ACCOUNTS.cardClearing } : { walletAccountId: source.payer.id };
  const sourceMetadata =
    source.kind === 'card' ? { brand: source.card.brand, last4: source.card.last4, processorReference: source.reference } : { payerAccountNumber: source.payer.accountNumber };
  let tnxId = '';
  await postTransaction(
    trx,
    {
      kind: 'gateway_payment',
      transactionFor: 'Payment',
      currency,
      amountCents,
      feeCents,
      createdBy: source.kind === 'wallet' ? source.userId : null,
      metadata: { paymentId: payment.id, storeId: payment.publicStoreId, orderId: payment.orderId, ...sourceMetadata },
      postings: [
        { party: from, amountCents: -amountCents },
        { party: { walletAccountId: payment.accountId }, amountCents: amountCents - feeCents },
        ...(feeCents > 0 ? [{ party: { system: SYSTEM_ACCOUNTS.feeRevenue }, amountCents: feeCents }] : []),
      ],
    },
    {
      beforeBalances: async (posted) => {
        tnxId = posted.transactionId;
        const sourceColumns =
          source.kind === 'card'
            ? {
                paymentSourceType: 'card',
                sourceBrand: source.card.brand,
                sourceFirst6: source.card.first6,
                sourceLast4: source.card.last4,
                sourceLength: source.card.digits.length,
                sourceExpiresIn: source.card.expiresIn,
                billingInfo: source.billingInfo === undefined ? null : JSON.stringify(source.billingInfo),
              }
            : {
                paymentSourceType: 'wallet',
                sourceBrand: WALLET_BRAND,
                // Only the last 4 digits of the payer's account number are kept on the payment.
                sourceLast4: /\d{4}$/.exec(source.payer.accountNumber)?.[0] ?? null,
                sourceLength: source.payer.accountNumber.length,
              };
        await trx
          .updateTable('payments')
          .set({ ...sourceColumns, paymentStatus: 'success', paidLedgerTransactionId: posted.id, transactionId: posted.transactionId, feeCents, paidAt: new Date(), attemptLeaseUntil: null })
          .where('id', '=', payment.id)
          .execute();
        await queueCallback(trx, { storeId: payment.storeId, paymentId: payment.id, targetUrl: payment.callbackUrl, payload: payloadOf(payment, 'success', posted.transactionId) });
        await trx
          .insertInto('activities')
          .values([
            {
              accountId: payment.accountId,
              name: 'Payment received',
              comment: `${formatMoney(amountCents, currency)} for order ${payment.orderId} at ${payment.storeName} (fee ${formatMoney(asCents(feeCents), currency)}), ${posted.transactionId}`,
            },
            ...(source.kind === 'wallet'
              ? [{ accountId: source.payer.id, name: 'Payment sent', comment: `${formatMoney(amountCents, currency)} to ${payment.storeName} for order ${payment.orderId}, ${posted.transactionId}` }]
              : []),
          ])
          .execute();
        await trx
          .insertInto('auditLog')
          .values(
            auditRow({
              actorUserId: source.kind === 'wallet' ? source.userId : null,
              action: source.kind === 'card' ? 'payment.card_paid' : 'payment.wallet_paid',
              subjectType: 'payment',
              subjectId: payment.id,
              details: { storeId: payment.publicStoreId, amountCents, feeCents },
            }),
          )
          .execute();
      },
    },
  );
  const data: PaymentResult = { paymentStatus: 'success', tnxId, orderId: payment.orderId, currency: payment.currency, amount: centsToMajor(amountCents), paymentId: payment.id };
  return { data, redirectUrl: successRedirect(ctx, payment, tnxId) };
}

/** The store's signed return address for a paid payment. */
function successRedirect(ctx: AppContext, payment: PaymentRow, tnxId: string): string {
  const storeKey = decryptStoreKey(ctx.config.secretKey, payment.storeKeyEncrypted);
  return signedRedirectUrl(payment.callbackUrl, storeKey, payloadOf(payment, 'success', tnxId));
}

/**
 * One card attempt on a payment. The payment is leased first (so exactly one attempt runs at
 * a time, whatever races), the processor is called outside any database transaction, and a
 * charge that cannot be recorded is voided. A decline is stored and answered 402; the
 * payment stays payable.
 */
async function attemptCard(
  ctx: AppContext,
  options: { caller: string; key: string | undefined; route: string; body: Record<string, unknown>; card: CheckedCard; cvc: string; billingInfo: unknown },
  loadPayment: () => Promise<PaymentRow>,
): Promise<{ answer: CardPaymentAnswer; replayed: boolean }> {
  const processor = cardProcessorOf(ctx);
  const state: { payment?: PaymentRow; fee?: number; reference?: string } = {};
  // The stored request hash must not let anyone recover the card: the number and CVC enter
  // it only through an HMAC keyed with the server secret.
  const cardMac = createHmac('sha256', ctx.config.secretKey).update(`${options.card.digits}\0${options.cvc}`).digest('base64url');
  const hashed = { ...options.body, number: undefined, cvc: undefined, card: cardMac };
  try {
    const outcome = await runIdempotent(
      ctx.db,
      {
        caller: options.caller,
        key: options.key,
        route: options.route,
        body: hashed,
        statusCode: 200,
        beforeWork: async () => {
          const payment = await loadPayment();
          if (payment.paymentStatus === 'success') throw conflict(paymentMessages.alreadyPaid, 'already_paid');
          const fee = feeOf(payment);
          if (fee >= payment.amountCents) throw feeTooHigh();
          if (!(await leasePayment(ctx.db, payment.id, ATTEMPT_LEASE_SECONDS))) {
            const fresh = await findPayment(ctx.db, payment.id);
            if (fresh?.paymentStatus === 'success') throw conflict(paymentMessages.alreadyPaid, 'already_paid');
            throw conflict(paymentMessages.attemptInProgress, 'attempt_in_progress');
          }
          state.payment = payment;
          let result;
          try {
            result = await processor.charge({
              number: options.card.digits,
              brand: options.card.brand,
              expMonth: options.card.expMonth,
              expYear: options.card.expYear,
              cvc: options.cvc,
              amountCents: payment.amountCents,
              currency: payment.currency as Currency,
            });
          } catch (error) {
            await releaseLease(ctx.db, payment.id);
            throw error;
          }
          if (!result.approved) {
            await recordFailedAttempt(ctx, payment, options.card, result.message);
            throw new AppError(402, result.code, result.message);
          }
          state.fee = fee;
          state.reference = result.reference;
        },
      },
      (trx) => recordPaid(trx, ctx, state.payment!, { kind: 'card', card: options.card, billingInfo: options.billingInfo, reference: state.reference! }, state.fee!),
    );
    return { answer: outcome.body, replayed: outcome.replayed };
  } catch (error) {
    const { reference, payment } = state;
    if (reference && payment) {
      // Voided (and the payment freed) only when the charge is known not to be recorded; a
      // lease left behind ends by itself after ATTEMPT_LEASE_SECONDS.
      try {
        if ((await voidUnlessRecorded(processor, reference, () => paymentChargeRecorded(ctx.db, payment.id, reference), ctx.log)) === 'voided') {
          await releaseLease(ctx.db, payment.id);
        }
      } catch (undoError) {
        ctx.log.error({ err: undoError, paymentId: payment.id }, 'could not free a payment after a failed card attempt');
      }
    }
    throw error;
  }
}

async function paymentOr404(ctx: AppContext, paymentId: string): Promise<PaymentRow> {
  const payment = isUuid(paymentId) ? await findPayment(ctx.db, paymentId) : undefined;
  if (!payment) throw notFound(paymentMessages.notFound, 'payment_not_found');
  return payment;
}

/** POST /v1/payment/complete/{paymentId}: the checkout's card payment (public: whoever holds the payment's id pays it). */
export async function payByCard(ctx: AppContext, paymentId: string, body: CompleteCardBody, idempotencyKey: string | undefined) {
  const payment = await paymentOr404(ctx, paymentId);
  const card = checkCard(body);
  return attemptCard(
    ctx,
    { caller: `payment:${payment.id}`, key: idempotencyKey, route: 'POST /v1/payment/complete', body, card, cvc: body.cvc, billingInfo: body.billingInfo },
    () => paymentOr404(ctx, paymentId),
  );
}

/** GET /v1/payment/{urlId}: the hosted checkout's view (public; the urlId is the capability). */
export async function getCheckout(ctx: AppContext, urlId: string): Promise<CheckoutView> {
  const row = await findPaymentByUrlId(ctx.db, urlId);
  if (!row) throw notFound(paymentMessages.notFound, 'payment_not_found');
  return {
    paymentId: row.id,
    storeName: row.storeName,
    storeLogo: storeLogoUrl(row.logoStoredName),
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    paymentStatus: row.paymentStatus,
    cancelUrl: row.cancelUrl,
    redirectUrl: row.paymentStatus === 'success' && row.transactionId ? successRedirect(ctx, row, row.transactionId) : null,
  };
}

/**
 * POST /v1/payment/complete/kestrel/{paymentId}: the checkout's wallet payment. The payer is
 * the signed-in caller, paying from an account they own, with its TPIN (counted, with
 * lockout) checked before any money moves. One ledger transaction: the payer's wallet pays
 * the owner's wallet the amount less the fee, fee revenue gets the fee.
 */
export async function payByWallet(ctx: AppContext, callerId: string, paymentId: string, body: KestrelPayBody, idempotencyKey: string | undefined) {
  if (body.userId !== undefined && body.userId !== callerId) throw forbidden(checkoutMessages.userMismatch);
  const payer = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!payer) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const payment = await paymentOr404(ctx, paymentId);
  if (payer.id === payment.accountId) throw badRequest(checkoutMessages.ownStore, undefined, 'own_store');
  const outcome = await runIdempotent(
    ctx.db,
    {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/payment/complete/kestrel',
      // The TPIN is left out of the stored request hash: a hash of a few digits is easily reversed.
      body: { ...body, tpin: undefined, userId: callerId, paymentId: payment.id },
      statusCode: 200,
      beforeWork: async () => {
        const fresh = await paymentOr404(ctx, paymentId);
        if (fresh.paymentStatus === 'success') throw conflict(paymentMessages.alreadyPaid, 'already_paid');
        if (feeOf(fresh) >= fresh.amountCents) throw feeTooHigh();
        await checkTpin(ctx.db, ctx.config.secretKey, payer.id, body.tpin, callerId, payer);
      },
    },
    async (trx) => {
      // Decided again under the account's row lock, held to commit: a lock written since the check stops this payment.
      await assertTpinNotLocked(trx, payer.id);
      return recordPaid(trx, ctx, payment, { kind: 'wallet', payer: { id: payer.id, accountNumber: payer.accountNumber }, userId: callerId }, feeOf(payment));
    },
  );
  return { answer: outcome.body, replayed: outcome.replayed };
}

/** POST /v1/payment/web-pay/complete/direct: create the payment and charge the card in one call. */
export async function payDirect(ctx: AppContext, store: GatewayStore, body: DirectPayBody, idempotencyKey: string | undefined) {
  const amountCents = body.amount;
  const card = checkCard(body);
  await assertFeeFits(ctx, store.accountId, amountCents);
  const { type: _type, brand: _brand, number: _number, expiresIn: _expiresIn, cvc: _cvc, billingInfo: _billing, ...webPay } = body;
  return attemptCard(
    ctx,
    { caller: `store:${store.id}`, key: idempotencyKey, route: 'POST /v1/payment/web-pay/complete/direct', body: { ...body, amount: amountCents }, card, cvc: body.cvc, billingInfo: body.billingInfo },
    async () => {
      const taken = await orderTaken(ctx, store, body.orderId);
      if (taken) throw taken;
      try {
        const created = await inTransaction(ctx.db, (trx) => insertPayment(trx, store, webPay, amountCents));
        return paymentOr404(ctx, created.paymentId);
      } catch (error) {
        if (isUniqueViolation(error, 'payments_store_order_key')) throw (await orderTaken(ctx, store, body.orderId)) ?? error;
        throw error;
      }
    },
  );
}

function maskedNumber(row: Pick<PaymentRow, 'paymentSourceType' | 'sourceFirst6' | 'sourceLast4' | 'sourceLength'>): string {
  if (row.paymentSourceType === 'wallet') return `****${row.sourceLast4 ?? ''}`;
  return `${row.sourceFirst6 ?? ''}${'*'.repeat(Math.max(0, (row.sourceLength ?? 16) - 10))}${row.sourceLast4 ?? ''}`;
}

type ErrorRow = Awaited<ReturnType<typeof paymentErrorsOf>>[number];

function paymentView(row: PaymentRow, errors: ErrorRow[]): PaymentView {
  return {
    _id: row.id,
    paymentId: row.id,
    paymentStatus: row.paymentStatus,
    paymentSourceType: row.paymentSourceType,
    paymentSource:
      row.paymentSourceType && row.sourceBrand
        ? { type: row.paymentSourceType, brand: row.sourceBrand, number: maskedNumber(row), expiresIn: row.sourceExpiresIn, billingInfo: row.billingInfo ?? null }
        : null,
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    fee: row.feeCents === null ? null : { amount: centsToMajor(asCents(row.feeCents)), currency: row.currency },
    orderId: row.orderId,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    customerAddress: row.customerAddress,
    productName: row.productName,
    cancelUrl: row.cancelUrl,
    valueA: row.valueA,
    urlId: row.urlId,
    transactionId: row.transactionId,
    paymentErrors: errors.map((error) => ({
      errorMessage: error.errorMessage,
      errorSource: { brand: error.sourceBrand, type: error.sourceType, number: error.sourceNumberMasked },
      errorAt: error.errorAt.toISOString(),
    })),
    storeId: row.publicStoreId,
    storeName: row.storeName,
    accountKey: row.accountNumber,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
  };
}

async function withErrors(ctx: AppContext, rows: PaymentRow[]): Promise<PaymentView[]> {
  const errors = await paymentErrorsOf(ctx.db, rows.map((row) => row.id));
  const byPayment = new Map<string, ErrorRow[]>();
  for (const error of errors) byPayment.set(error.paymentId, [...(byPayment.get(error.paymentId) ?? []), error]);
  return rows.map((row) => paymentView(row, byPayment.get(row.id) ?? []));
}

/** GET /v1/payment/paymentId/{paymentId} for a store: its own payments only. */
export async function getPaymentForStore(ctx: AppContext, store: GatewayStore, paymentId: string): Promise<PaymentView> {
  const row = await paymentOr404(ctx, paymentId);
  if (row.storeId !== store.id) throw notFound(paymentMessages.notFound, 'payment_not_found');
  return (await withErrors(ctx, [row]))[0]!;
}

/** GET /v1/payment/paymentId/{paymentId} for a signed-in user: payments into an account they own. */
export async function getPaymentForOwner(ctx: AppContext, userId: string, paymentId: string): Promise<PaymentView> {
  const row = await paymentOr404(ctx, paymentId);
  const owned = await ctx.db.selectFrom('accountUsers').select('userId').where('accountId', '=', row.accountId).where('userId', '=', userId).executeTakeFirst();
  if (!owned) throw notFound(paymentMessages.notFound, 'payment_not_found');
  return (await withErrors(ctx, [row]))[0]!;
}

/** POST /v1/payment/account: payments into one of the caller's accounts, newest first. */
export async function listAccountPayments(ctx: AppContext, userId: string, accountEmail: string): Promise<PaymentView[]> {
  const account = await findOwnedAccount(ctx.db, { userId }, accountEmail);
  if (!account) throw notFound('Account not available!', 'account_not_found');
  return withErrors(ctx, await listPayments(ctx.db, { accountId: account.id }));
}

/** GET /v1/payment/store/{storeId}: one of the caller's stores' payments, newest first. */
export async function listStorePayments(ctx: AppContext, userId: string, storeId: string): Promise<PaymentView[]> {
  const store = await findOwnedStore(ctx.db, userId, storeId);
  if (!store) throw notFound('Store not found', 'store_not_found');
  return withErrors(ctx, await listPayments(ctx.db, { storeId: store.id }));
}

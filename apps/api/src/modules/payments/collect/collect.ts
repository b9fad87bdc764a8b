import { createHmac } from 'node:crypto';
import { formatMoney, paymentMessages, type Cents, type Currency } from '@kestrel/shared';
import type { AppContext } from '../../../context.ts';
import { isDatabaseUnavailable } from '../../../db/unavailable.ts';
import { refuse, type Refusal } from '../../../http/refusals.ts';
import { idempotencyKeyReused, requestHash, storedAnswer } from '../../../http/idempotency.ts';
import { checkTpin, MoneyMovementLockedError, throwUnlessTpinOk, tpinCheckArgs, TpinLockedError } from '../../accounts/tpin.ts';
import type { AuditEntry } from '../../audit/audit.ts';
import { prepareStepUp, stepUpBinding, stepUpRefusal, type PreparedStepUp, type StepUpMovement } from '../../auth/step-up.ts';
import { InsufficientFundsError, newTransactionId } from '../../ledger/ledger.service.ts';
import { voidUnlessRecorded, type CardProcessor, type ChargeOutcome } from '../card-processor.ts';
import type { CheckedCard } from '../card-input.ts';
import { collectPost } from './collect-post.ts';
import {
  cardOnRecord,
  cardRefusalSource,
  isKeptRefusal,
  walletRefusalSource,
  type CardOnRecord,
  type CollectSource,
  type RecordRefusal,
  type RefusalSink,
  type RefusalSource,
  type WalletPayer,
} from './sources.ts';

/*
 * The collect pipeline: the one way money comes into a payee's wallet from a payer, used by
 * the gateway (hosted checkout, direct card, wallet) and by payment-request links (card,
 * wallet). What differs between them is passed in: the record that is paid (a `Collectible`),
 * how a card attempt holds it while the card is charged (an `AttemptHold`: a lease on a
 * payment, a held use of a link) and where refusals are kept (`RefusalSink`).
 *
 * The order is fixed here, so both callers behave alike:
 *   card: `open` — the idempotency key's earlier answer (the card enters the stored request
 *         hash only as an HMAC), the record re-read and refused if it cannot be paid (fee
 *         check), the hold taken: one database call for a payment (its lease, in
 *         payment-collect.ts), two for a link (the link with the key, then a held use) —
 *         then the charge, outside any database transaction
 *   wallet: `open` — the key's earlier answer, read with the record in one statement, and
 *         the record's refusals (before the TPIN is tried, so they cost no attempt); with a
 *         step-up code, the TPIN checked on its own first (a wrong one costs no code try)
 *   → one database call (`collect_post`, db/functions/collect_post.sql): for a wallet, the
 *     payer's TPIN and operator locks under its row lock and, without a step-up code, the
 *     TPIN itself (tpin_check: counted, with lockout, the count committed with a refusal);
 *     the record under its row lock, the ledger transaction with its three postings (source,
 *     payee less fee, fee revenue), the record, the callback, activities, audit, balances,
 *     idempotency record
 *   → a charge that did not get recorded (an error, or a concurrent request with the same
 *     Idempotency-Key won) is voided unless the books show it, and the hold given back.
 *
 * A processor that does not answer a charge (timeout) gets the payer a 502 and nothing is
 * recorded; if it charged the card anyway, the day's reconciliation with its records finds the
 * charge, and an operator records it here (`recordCardCharge`: the same database step, for a
 * charge already made) or voids it.
 *
 * A refund is this pipeline in reverse (payee → payer, fee back in proportion): refund.ts,
 * on the processor's reference that the collect keeps in the ledger transaction's metadata.
 */

/** The card processor in use; the built-in sandbox until a real network is connected. */
export function cardProcessorOf(ctx: AppContext): CardProcessor {
  return ctx.cardProcessor;
}

/** What the database step writes for one collect, made before the call (the transaction id is chosen here). */
export interface Described<Answer> {
  answer: Answer;
  /** The record's columns (snake_case): a payment's source, or a link payment's row. */
  record: Record<string, unknown>;
  /** The store's callback (a gateway payment), or null. */
  callback: { store_id: string; target_url: string; body: string } | null;
  payeeActivity: { name: string; comment: string };
  payerActivity?: { name: string; comment: string };
  audit: AuditEntry & { subjectType: string; subjectId: string };
}

/** What one collect moves and records, as its caller (the gateway, a link) decides. */
export interface Collectible<Answer> {
  target: 'payment' | 'link';
  recordId: string;
  ledgerKind: 'gateway_payment' | 'payment_request';
  transactionFor: string;
  payeeAccountId: string;
  currency: Currency;
  amountCents: Cents;
  feeCents: Cents;
  metadata: Record<string, unknown>;
  /** The payer's name and e-mail the processor keeps with a charge (a link's card form asks for them). */
  billing?: { name: string | null; email: string | null };
  /** A link card attempt's held use, spent by the database step. */
  holdId?: () => string | undefined;
  describe(transactionId: string, source: CollectSource): Described<Answer>;
  /** The error a refusal of the record is answered with. */
  refusal(kind: RecordRefusal): Promise<Refusal>;
}

/** How a card attempt holds its record while the card is charged: a lease on a payment, a held use of a link. */
export interface AttemptHold {
  /** Gives the hold back (a declined or voided charge). */
  release(): Promise<void>;
  /** Whether the charge with this processor reference was recorded on the record (see voidUnlessRecorded). */
  chargeRecorded(reference: string): Promise<boolean>;
}

export interface IdempotencyScope {
  caller: string;
  key: string | undefined;
  route: string;
  /** The request as hashed for the key: secrets (TPIN, card) are left out by the pipeline. */
  body: Record<string, unknown>;
}

/** A stored first answer to this key, if any (a key used with another request is a 422). */
async function earlierAnswer<A>(ctx: AppContext, scope: IdempotencyScope, fingerprint: string): Promise<A | undefined> {
  if (!scope.key) return undefined;
  return (await storedAnswer<A>(ctx.db, scope.caller, scope.key, fingerprint))?.body;
}

/** The database step of one collect, in one call; answers the answer (or the stored first one) or throws the refusal. */
async function post<A>(
  ctx: AppContext,
  scope: IdempotencyScope,
  fingerprint: string,
  target: Collectible<A>,
  source: CollectSource,
  stepUp?: { prepared: PreparedStepUp; movement: StepUpMovement },
): Promise<{ answer: A; replayed: boolean }> {
  const transactionId = newTransactionId();
  const described = target.describe(transactionId, source);
  // A card payment names its processor and the processor's reference: reconciliation matches
  // each processor's records with the payments it charged (a unique index: recorded once).
  const sourceMetadata =
    source.kind === 'card'
      ? { brand: source.card.brand, last4: source.card.last4, processor: source.processor, processorReference: source.reference }
      : { payerAccountNumber: source.payer.accountNumber };
  const activities = [{ account_id: target.payeeAccountId, ...described.payeeActivity }];
  if (source.kind === 'wallet' && described.payerActivity) activities.push({ account_id: source.payer.id, ...described.payerActivity });
  const { audit } = described;
  const outcome = await collectPost(ctx.db, {
    target: target.target,
    recordId: target.recordId,
    holdId: target.holdId?.() ?? null,
    payerAccountId: source.kind === 'wallet' ? source.payer.id : null,
    payeeAccountId: target.payeeAccountId,
    currency: target.currency,
    amountCents: target.amountCents,
    feeCents: target.feeCents,
    transactionId,
    ledgerKind: target.ledgerKind,
    transactionFor: target.transactionFor,
    createdBy: source.kind === 'wallet' ? source.userId : null,
    metadata: { ...target.metadata, ...sourceMetadata },
    record: described.record,
    activities,
    audit: { actor_user_id: audit.actorUserId, action: audit.action, subject_type: audit.subjectType, subject_id: audit.subjectId, details: audit.details ?? {} },
    callback: described.callback,
    idempotencyCaller: scope.caller,
    idempotencyKey: scope.key,
    requestHash: fingerprint,
    answer: described.answer,
    stepUp: stepUp?.prepared.args ?? null,
    tpin: source.kind === 'wallet' && source.tpin !== undefined ? tpinCheckArgs(ctx.config.secretKey, source.payer.id, source.tpin, source.payer.userName) : null,
  });
  switch (outcome.kind) {
    case 'ok':
      // The call wrote the receipt's and the payee's notification event; their mails leave after this answer.
      ctx.notifications.ring();
      if (stepUp?.prepared.args.given) await stepUp.prepared.accepted();
      return { answer: described.answer, replayed: false };
    case 'replay':
      return { answer: JSON.parse(outcome.bodyText) as A, replayed: true };
    case 'idempotency_mismatch':
      throw idempotencyKeyReused();
    case 'tpin_locked':
      throw new TpinLockedError(outcome.lockedUntil);
    case 'money_movement_locked':
      throw new MoneyMovementLockedError();
    case 'insufficient_funds':
      throw new InsufficientFundsError();
    case 'tpin_check': {
      if (source.kind !== 'wallet' || source.tpin === undefined) throw new Error('collect_post answered tpin_check without a TPIN');
      const checked = outcome.tpin;
      // The stored hash covers another user name than the one read with the payer: the call again with that name.
      if (checked.kind === 'rekey' && checked.userName !== source.payer.userName) {
        return post(ctx, scope, fingerprint, target, { ...source, payer: { ...source.payer, userName: checked.userName } }, stepUp);
      }
      // An argon2 hash from before keyed hashes: checked (and replaced) in Node.js, then the call without the TPIN.
      if (checked.kind === 'legacy') {
        await checkTpin(ctx.db, ctx.config.secretKey, source.payer.id, source.tpin, source.userId, source.payer);
        return post(ctx, scope, fingerprint, target, { ...source, tpin: undefined }, stepUp);
      }
      throwUnlessTpinOk(checked);
      throw new Error(`collect_post answered the TPIN check ${checked.kind}`);
    }
    case 'step_up':
      if (!stepUp || source.kind !== 'wallet') throw new Error(`collect_post answered ${outcome.refusal} for a card`);
      throw await stepUpRefusal(ctx, stepUp.movement, source.payer.id, outcome.refusal, outcome.remaining);
    default:
      throw await target.refusal(outcome.kind);
  }
}

async function keepRefusal(ctx: AppContext, sink: RefusalSink, error: unknown, source: RefusalSource): Promise<void> {
  if (!isKeptRefusal(error)) return;
  await sink(error, source).catch((sinkError: unknown) => ctx.log.warn({ err: sinkError }, 'could not keep a refused payment attempt'));
}

/** A card attempt opened: the key's first answer to replay, or the record held for this attempt. */
export type OpenedAttempt<A> = { kind: 'replay'; answer: A } | { kind: 'held'; target: Collectible<A>; hold: AttemptHold };

export interface CardCollect<A> {
  idempotency: IdempotencyScope;
  card: CheckedCard;
  cvc: string;
  /**
   * Opens the attempt: the key's earlier answer (`fingerprint` is the request's hash, the card
   * in it only as an HMAC), then the record re-read, refused when it cannot be paid, and held.
   * A payment does it in one database call (payment-collect.ts); a link reads the key with
   * the link and then holds a use (link-pay.service.ts).
   */
  open(fingerprint: string): Promise<OpenedAttempt<A>>;
  refused: RefusalSink;
}

/**
 * One card attempt. The record is held first (so a payment has one attempt at a time, and a
 * link's last use one payer), the processor is called outside any database transaction, and
 * a charge that is not recorded is voided (unless the books show it after all) and the hold
 * given back. A decline answers 402 with the processor's reason and is kept as a refusal.
 */
export async function collectByCard<A>(ctx: AppContext, options: CardCollect<A>): Promise<{ answer: A; replayed: boolean }> {
  const processor = cardProcessorOf(ctx);
  const state: { hold?: AttemptHold; held: boolean; reference?: string } = { held: false };
  const undo = async () => {
    const { hold, reference } = state;
    state.reference = undefined;
    if (hold && reference) {
      // A lease or use stays taken when the charge was recorded after all (it is spent) or
      // when the books cannot tell (it ends by itself at its expiry).
      if ((await voidUnlessRecorded(processor, reference, () => hold.chargeRecorded(reference), ctx.log)) !== 'voided') state.held = false;
    }
    if (hold && state.held) {
      state.held = false;
      await hold.release();
    }
  };
  // The stored request hash must not let anyone recover the card: the number and CVC enter
  // it only through an HMAC keyed with the server secret.
  const cardMac = createHmac('sha256', ctx.config.secretKey).update(`${options.card.digits}\0${options.cvc}`).digest('base64url');
  const scope = options.idempotency;
  const fingerprint = requestHash(scope.route, { ...scope.body, number: undefined, cvc: undefined, card: cardMac });
  try {
    const opened = await options.open(fingerprint);
    if (opened.kind === 'replay') return { answer: opened.answer, replayed: true };
    const { target, hold } = opened;
    state.hold = hold;
    state.held = true;
    const { card } = options;
    let result: ChargeOutcome;
    try {
      result = await processor.charge({
        number: card.digits,
        brand: card.brand,
        expMonth: card.expMonth,
        expYear: card.expYear,
        cvc: options.cvc,
        amountCents: target.amountCents,
        currency: target.currency,
        merchantReference: `${target.target}:${target.recordId}`,
        ...(target.billing ? { billing: target.billing } : {}),
      });
    } catch (error) {
      // The built-in sandbox keeps its records in Kestrel's own database: its failing for a
      // database outage is that outage, answered 503 with Retry-After like every other call.
      if (isDatabaseUnavailable(error)) throw error;
      // No answer: whether the card was charged is the processor's record's to say (reconciliation).
      ctx.log.warn({ err: error, processor: processor.name, target: target.target, recordId: target.recordId }, 'card processor did not answer a charge; nothing recorded');
      throw refuse('card_processor_unavailable', { message: paymentMessages.processorNoAnswer });
    }
    if (!result.approved) throw refuse(result.code, { message: result.message });
    state.reference = result.reference;
    const outcome = await post(ctx, scope, fingerprint, target, { kind: 'card', card: cardOnRecord(card), reference: result.reference, processor: processor.name });
    // A concurrent request with the same key won: this one's charge and hold are not needed.
    if (outcome.replayed) await undo();
    return outcome;
  } catch (error) {
    // The first error is the answer; one while undoing (the database still down) is logged.
    await undo().catch((undoError: unknown) => ctx.log.error({ err: undoError }, 'could not undo a failed card attempt'));
    await keepRefusal(ctx, options.refused, error, cardRefusalSource(options.card));
    throw error;
  }
}

/** A wallet payment opened: the key's first answer to replay, or what to collect. */
export type OpenedPayment<A> = { kind: 'replay'; answer: A } | { kind: 'ready'; target: Collectible<A> };

export interface WalletCollect<A> {
  idempotency: IdempotencyScope;
  payer: WalletPayer;
  userId: string;
  tpin: string;
  /** The body's stepUpCode: needed above the payer's step-up threshold (auth/step-up.ts). */
  stepUpCode: string | undefined;
  /** The caller's address (the second-factor throttle counts by it). */
  ip: string;
  /**
   * The key's earlier answer (`fingerprint`: the request's hash, without the TPIN), then the
   * record re-read and what stops the payment thrown (before the TPIN is tried, so it costs
   * no attempt). A payment and a link each read the key with the record, in one statement.
   */
  open(fingerprint: string): Promise<OpenedPayment<A>>;
  refused: RefusalSink;
}

/**
 * A payment from a wallet the signed-in caller owns, with its TPIN (counted, with lockout)
 * checked before any money moves and its lock re-checked under the account's row lock in the
 * one database call that takes the record, debits the payer and credits the payee.
 */
export async function collectByWallet<A>(ctx: AppContext, options: WalletCollect<A>): Promise<{ answer: A; replayed: boolean }> {
  const { payer, userId } = options;
  const scope = options.idempotency;
  // The TPIN is left out of the stored request hash: a hash of a few digits is easily reversed.
  // So is the step-up code: the same request with the code it was refused for is the same request.
  const fingerprint = requestHash(scope.route, { ...scope.body, tpin: undefined, stepUpCode: undefined, userId });
  try {
    const opened = await options.open(fingerprint);
    if (opened.kind === 'replay') return { answer: opened.answer, replayed: true };
    const { target } = opened;
    // Above the payer's threshold the call also needs the second factor (auth/step-up.ts).
    const movement: StepUpMovement = {
      userId,
      ip: options.ip,
      binding: stepUpBinding('pay', target.target, target.recordId, payer.id, target.currency, target.amountCents),
      summary: `a wallet payment of ${formatMoney(target.amountCents, target.currency)}`,
    };
    const withCode = options.stepUpCode !== undefined && options.stepUpCode.trim() !== '';
    // A step-up code is a counted second-factor try, made ready before the call: the TPIN is
    // checked first, on its own, so that a wrong TPIN costs no code try. Without a code (the
    // usual pay) the TPIN is checked inside the one call, under the payer's row lock.
    if (withCode) await checkTpin(ctx.db, ctx.config.secretKey, payer.id, options.tpin, userId, payer);
    const prepared = await prepareStepUp(ctx, movement, options.stepUpCode);
    // The TPIN and operator locks are decided (again) in the call, under the account's row lock.
    const tpin = withCode ? undefined : String(options.tpin);
    return await post(ctx, scope, fingerprint, target, { kind: 'wallet', payer, userId, tpin }, { prepared, movement });
  } catch (error) {
    await keepRefusal(ctx, options.refused, error, walletRefusalSource(payer.accountNumber));
    throw error;
  }
}

/** A charge the processor made that the books do not have (reconciliation's "charged but not recorded"). */
export interface StandingCharge {
  reference: string;
  card: CardOnRecord;
  /** What the processor charged, as its record says (the record being paid must ask exactly this). */
  amountCents: Cents;
  currency: string;
}

/**
 * Records a charge the processor already made (its answer was lost, or its recording failed
 * and the charge was left standing): the pipeline's database step alone, `collect_post`, with
 * the charge as the source — no hold, no new charge, no void. `prepare` re-reads the record
 * and throws what stops it (after the idempotency check, so a replay of a recorded charge
 * answers as the first time); the record's own refusals in the call (paid meanwhile, a link
 * that takes no payment now, an owner locked) come back as the caller's errors and nothing is
 * written. The ledger's unique processor reference records a charge at most once.
 */
export async function recordCardCharge<A>(
  ctx: AppContext,
  options: { idempotency: IdempotencyScope; charge: StandingCharge; prepare(): Promise<Collectible<A>> },
): Promise<{ answer: A; replayed: boolean }> {
  const scope = options.idempotency;
  const fingerprint = requestHash(scope.route, scope.body);
  const earlier = await earlierAnswer<A>(ctx, scope, fingerprint);
  if (earlier !== undefined) return { answer: earlier, replayed: true };
  const target = await options.prepare();
  return post(ctx, scope, fingerprint, target, { kind: 'card', card: options.charge.card, reference: options.charge.reference, processor: cardProcessorOf(ctx).name });
}

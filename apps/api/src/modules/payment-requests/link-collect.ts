import { randomUUID } from 'node:crypto';
import {
  asCents,
  asCurrency,
  CARD_ATTEMPT_HOLD_SECONDS,
  centsToMajor,
  formatMoney,
  MAX_DECLINES_PER_STORE_PER_HOUR,
  paymentMessages,
  type Cents,
  type PayPaymentRequestByCardBody,
  type PayPaymentRequestByKestrelBody,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse, type Refusal } from '../../http/refusals.ts';
import type { AttemptHold, Collectible } from '../payments/collect/collect.ts';
import { WALLET_BRAND, type RefusalSink } from '../payments/collect/sources.ts';
import { gatewayFeeCents } from '../payments/fees.ts';
import { findLink, holdUse, insertLinkError, linkChargeRecorded, releaseHold, sweepExpiredHolds, type LinkRow } from './payment-requests.repository.ts';

/*
 * The payment link's side of the collect pipeline (payments/collect/collect.ts): what a paid
 * link records (a payment_request_payments row), how a card attempt holds the link (one of
 * its uses, with an expiry) and where refusals go (the link's 'Failed' tab). The rules of
 * when a link takes a payment live here too, for the pay routes and the views.
 */

export const linkNotFound = () => refuse('payment_request_not_found');
export const feeTooHigh = () => refuse('fee_too_high');

export function linkFeeOf(link: Pick<LinkRow, 'paymentRequestFeeFixedCents' | 'paymentRequestFeePercent'>, amountCents: Cents): Cents {
  return gatewayFeeCents(amountCents, asCents(link.paymentRequestFeeFixedCents), link.paymentRequestFeePercent);
}

export function isExpired(link: Pick<LinkRow, 'expiresAt'>, now = new Date()): boolean {
  return link.expiresAt !== null && link.expiresAt <= now;
}

export function limitReached(link: Pick<LinkRow, 'isUseLimit' | 'useLimit'>): boolean {
  return link.isUseLimit && (link.useLimit ?? 0) <= 0;
}

const limitExceeded = () => refuse('limit_exceeded');

/**
 * Why a link takes no payment now, in the order the pay page shows it (disabled, expired,
 * limit reached), or undefined when it does. An operator's lock on the receiving account
 * also stops payments into it.
 */
export function refusalOf(link: LinkRow, now = new Date()): Refusal | undefined {
  if (link.status !== 'active') return refuse('payment_request_disabled');
  if (isExpired(link, now)) return refuse('payment_request_expired');
  if (link.moneyMovementLocked) return refuse('payment_request_owner_locked');
  if (limitReached(link)) return limitExceeded();
  return undefined;
}

/** Re-reads the link and refuses it when it takes no payment now (disabled, expired, locked, limit reached). */
export async function payableLink(ctx: AppContext, linkId: string): Promise<LinkRow> {
  const link = await findLink(ctx.db, linkId);
  if (!link) throw linkNotFound();
  const refusal = refusalOf(link);
  if (refusal) throw refusal;
  return link;
}

/** Why no use could be held or taken: the link's refusal, or every remaining use held by attempts in flight. */
async function whyNoUse(db: AppContext['db'], linkId: string): Promise<Refusal> {
  const link = await findLink(db, linkId);
  if (!link) return linkNotFound();
  return refusalOf(link) ?? limitExceeded();
}

export interface LinkPaid {
  transactionId: string;
  amount: number;
  currency: string;
  paymentId: string;
}

/**
 * The payer's part of a link payment's record: the card form's fields, the wallet payer's
 * e-mail, or (a charge recorded from the processor's record by reconciliation) the name and
 * e-mail the processor kept with the charge.
 */
export type LinkPayBody =
  | { kind: 'card'; body: PayPaymentRequestByCardBody }
  | { kind: 'wallet'; body: PayPaymentRequestByKestrelBody }
  | { kind: 'recorded'; billing: { name: string | null; email: string | null } };

/**
 * A link payment as the collect pipeline's record. The database step spends its use: a card
 * attempt's held use (`holdId`), or for a wallet one taken in the same call (a refusal rolls
 * it back); then refuses it when an operator has locked the owner's account since.
 */
export function linkCollectible(link: LinkRow, payBody: LinkPayBody, amountCents: Cents, feeCents: Cents, holdId: () => string | undefined, db: AppContext['db']): Collectible<LinkPaid> {
  const currency = asCurrency(link.currency);
  return {
    target: 'link',
    recordId: link.id,
    ledgerKind: 'payment_request',
    transactionFor: 'Payment Request',
    payeeAccountId: link.accountId,
    currency,
    amountCents,
    feeCents,
    metadata: { paymentRequestId: link.id, pRequestURLId: link.pRequestUrlId },
    ...(payBody.kind === 'card' ? { billing: { name: payBody.body.cardHolderName, email: payBody.body.email } } : {}),
    holdId,
    describe(transactionId, source) {
      const paymentId = randomUUID();
      const cardColumns =
        source.kind === 'card'
          ? { source_type: 'card', source_brand: source.card.brand, source_first6: source.card.first6, source_last4: source.card.last4, source_length: source.card.length }
          : undefined;
      const sourceColumns =
        cardColumns && payBody.kind === 'card'
          ? {
              ...cardColumns,
              payer_email: payBody.body.email,
              payer_phone: payBody.body.phone ?? null,
              card_holder_name: payBody.body.cardHolderName,
              country_or_region: payBody.body.countryOrRegion ?? null,
              billing_info: payBody.body.billingInfo ?? null,
            }
          : cardColumns && payBody.kind === 'recorded'
            ? { ...cardColumns, payer_email: payBody.billing.email, card_holder_name: payBody.billing.name }
          : source.kind === 'wallet' && payBody.kind === 'wallet'
            ? {
                source_type: 'wallet',
                source_brand: WALLET_BRAND,
                // Only the last 4 digits of the payer's account number are shown on the link's payments.
                source_last4: /\d{4}$/.exec(source.payer.accountNumber)?.[0] ?? null,
                source_length: source.payer.accountNumber.length,
                payer_account_id: source.payer.id,
                payer_user_id: source.userId,
                payer_email: payBody.body.email ?? source.payer.accountEmail,
              }
            : undefined;
      if (!sourceColumns) throw new Error('a link payment whose source and body disagree');
      const shown = formatMoney(amountCents, currency);
      return {
        answer: { transactionId, amount: centsToMajor(amountCents), currency, paymentId },
        record: { id: paymentId, reference: payBody.kind === 'recorded' ? null : (payBody.body.reference ?? null), ...sourceColumns },
        callback: null,
        payeeActivity: { name: 'Payment request paid', comment: `${shown} for "${link.paymentPurpose}" (fee ${formatMoney(feeCents, currency)}), ${transactionId}` },
        payerActivity: { name: 'Payment sent', comment: `${shown} for "${link.paymentPurpose}" to ${link.accountNumber}, ${transactionId}` },
        audit: {
          actorUserId: source.kind === 'wallet' ? source.userId : null,
          action: source.kind === 'card' ? 'payment_request.card_paid' : 'payment_request.wallet_paid',
          subjectType: 'payment_request',
          subjectId: link.id,
          details: { paymentId, amountCents, feeCents },
        },
      };
    },
    async refusal(kind) {
      if (kind === 'limit_exceeded') return limitExceeded();
      if (kind === 'link_unavailable') return whyNoUse(db, link.id);
      if (kind === 'owner_locked') return refuse('payment_request_owner_locked');
      throw new Error(`a link payment is never refused with ${kind}`);
    },
  };
}

/**
 * A card attempt's hold on a link: one of its uses, held until the payment is recorded, the
 * card declined, or CARD_ATTEMPT_HOLD_SECONDS pass (a process that died mid-attempt: the
 * next attempt that finds no free use sweeps expired holds and tries again). Past the link's
 * hourly decline cap the attempt is refused 429 before the card is charged.
 */
export function linkUseHold(ctx: AppContext, linkId: string): AttemptHold & { take(): Promise<void>; holdId: () => string | undefined } {
  let holdId: string | undefined;
  const expiry = () => new Date(Date.now() + CARD_ATTEMPT_HOLD_SECONDS * 1000);
  return {
    holdId: () => holdId,
    async take() {
      let held = await holdUse(ctx.db, linkId, expiry());
      if (!held && (await sweepExpiredHolds(ctx.db, linkId)) > 0) held = await holdUse(ctx.db, linkId, expiry());
      if (!held) throw await whyNoUse(ctx.db, linkId);
      holdId = held.holdId;
      if (held.recentDeclines >= MAX_DECLINES_PER_STORE_PER_HOUR) {
        await releaseHold(ctx.db, held.holdId);
        holdId = undefined;
        throw refuse('too_many_declines', { message: paymentMessages.tooManyStoreDeclines });
      }
    },
    async release() {
      if (holdId) await releaseHold(ctx.db, holdId);
    },
    chargeRecorded: (reference) => linkChargeRecorded(ctx.db, linkId, reference),
  };
}

/** A link's refused attempts go to its 'Failed' tab, with the source masked. */
export function linkRefusals(ctx: AppContext, linkId: string): RefusalSink {
  return (refusal, source) => insertLinkError(ctx.db, linkId, refusal.code, refusal.message, source);
}

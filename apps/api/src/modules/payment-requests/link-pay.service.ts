import { asCents, paymentRequestMessages as m, reconciliationMessages, type Cents, type PaymentMethod, type PayPaymentRequestByCardBody, type PayPaymentRequestByKestrelBody } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { findOwnedAccount } from '../../http/ownership.ts';
import { checkCard } from '../payments/card-input.ts';
import { collectByCard, collectByWallet, recordCardCharge, type IdempotencyScope, type StandingCharge } from '../payments/collect/collect.ts';
import { replayOf } from '../../http/idempotency.ts';
import { feeTooHigh, linkCollectible, linkFeeOf, linkNotFound, linkRefusals, linkUseHold, payableLink, refusalOf, type LinkPaid } from './link-collect.ts';
import { findLinkForAttempt, type LinkRow } from './payment-requests.repository.ts';

/*
 * Paying a payment-request link: by card (public: whoever holds the link) or from a Kestrel
 * wallet the signed-in payer owns, both through the collect pipeline. Bad input (method,
 * amount, card) is refused before anything is stored; refusals of an attempt land in the
 * link's 'Failed' tab with the source masked.
 */

/** The amount a payer may pay: exactly a fixed link's amount, or within a custom link's range. */
function payableAmount(link: LinkRow, amount: Cents): Cents {
  if (link.amountType === 'fixed') {
    const value = asCents(link.amountCents ?? 0);
    if (amount !== value) throw refuse('amount_mismatch', { message: m.amountMismatch(value), fields: { amount: m.amountMismatch(value) } });
    return amount;
  }
  const minimum = asCents(link.minimumAmountCents ?? 0);
  const maximum = asCents(link.maximumAmountCents ?? 0);
  if (amount < minimum || amount > maximum) {
    throw refuse('amount_out_of_range', { message: m.amountOutOfRange(minimum, maximum), fields: { amount: m.amountOutOfRange(minimum, maximum) } });
  }
  return amount;
}

function assertMethod(link: LinkRow, method: PaymentMethod): void {
  const accepted = method === 'Card' ? link.acceptsCard : link.acceptsKestrel;
  if (!accepted) throw refuse('method_not_allowed', { message: m.methodNotAllowed(method) });
}

/** The link re-read as the attempt starts: refused when it takes no payment now, or when the fee would take the whole amount. */
/** The fee of a payment into the link as read: refused when the link takes no payment now, or when the fee would take the whole amount. */
function payableFee(link: LinkRow, amountCents: Cents): Cents {
  const refusal = refusalOf(link);
  if (refusal) throw refusal;
  const fee = linkFeeOf(link, amountCents);
  if (fee >= amountCents) throw feeTooHigh();
  return fee;
}

async function feeFor(ctx: AppContext, linkId: string, amountCents: Cents): Promise<Cents> {
  return payableFee(await payableLink(ctx, linkId), amountCents);
}

/** The link and the Idempotency-Key's earlier use in one read (findLinkForAttempt), or 404. */
async function linkForAttemptOr404(ctx: AppContext, pRequestUrlId: string, key: { caller?: string; key: string | undefined }) {
  const read = await findLinkForAttempt(ctx.db, pRequestUrlId, key);
  if (!read) throw linkNotFound();
  return read;
}

/**
 * POST /v1/payment-request/card/complete-payment/{pRequestURLId} (public). A use of the link
 * is held (one conditional UPDATE, committed at once, so 50 payers racing for the last use
 * get one charge between them), the card is charged outside any database transaction, and
 * the payment recorded, spending the use. A decline, or a charge that cannot be recorded,
 * gives the hold back (and voids the charge); a crash leaves a hold that expires.
 */
export async function payPaymentRequestByCard(ctx: AppContext, pRequestUrlId: string, body: PayPaymentRequestByCardBody, idempotencyKey: string | undefined) {
  const { link, earlier } = await linkForAttemptOr404(ctx, pRequestUrlId, { key: idempotencyKey });
  assertMethod(link, 'Card');
  const amountCents = payableAmount(link, body.amount);
  const card = checkCard(body);
  const hold = linkUseHold(ctx, link.id);
  return collectByCard(ctx, {
    idempotency: { caller: `payment-request:${link.id}`, key: idempotencyKey, route: 'POST /v1/payment-request/card/complete-payment', body: { ...body, amount: amountCents } },
    card,
    cvc: body.cvc,
    // The key's earlier answer came with the link; then the link as read is refused or its use held.
    open: async (fingerprint) => {
      if (earlier) return { kind: 'replay', answer: replayOf<LinkPaid>(earlier, fingerprint) };
      const fee = payableFee(link, amountCents);
      await hold.take();
      return { kind: 'held', target: linkCollectible(link, { kind: 'card', body }, amountCents, fee, hold.holdId, ctx.db), hold };
    },
    refused: linkRefusals(ctx, link.id),
  });
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
  body: PayPaymentRequestByKestrelBody,
  idempotencyKey: string | undefined,
  ip: string,
) {
  if (body.userId !== undefined && body.userId !== callerId) throw refuse('forbidden', { message: m.userMismatch });
  const { link, earlier } = await linkForAttemptOr404(ctx, pRequestUrlId, { caller: `user:${callerId}`, key: idempotencyKey });
  const payer = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!payer) throw refuse('account_not_found');
  assertMethod(link, 'Kestrel');
  const amountCents = payableAmount(link, body.amount);
  if (payer.id === link.accountId) throw refuse('own_link');
  return collectByWallet(ctx, {
    idempotency: {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/payment-request/kestrel/complete-payment',
      body: { ...body, tpin: undefined, userId: callerId, amount: amountCents, paymentRequestId: link.id },
    },
    payer,
    userId: callerId,
    tpin: body.tpin,
    stepUpCode: body.stepUpCode,
    ip,
    // Refused before the TPIN is tried, so a link that cannot be paid costs no attempt.
    open: async (fingerprint) => {
      if (earlier) return { kind: 'replay', answer: replayOf<LinkPaid>(earlier, fingerprint) };
      return { kind: 'ready', target: linkCollectible(link, { kind: 'wallet', body }, amountCents, payableFee(link, amountCents), () => undefined, ctx.db) };
    },
    refused: linkRefusals(ctx, link.id),
  });
}

/**
 * Records a card charge the processor made for this link that the books never took
 * (reconciliation's "record", issue 26): the link must still take it now — active, not
 * expired, a use left, card accepted, the amount one it asks for, in its currency — and the
 * payment is then written through the collect pipeline's database step with that charge and
 * the payer's name and e-mail the processor kept. Answers the ledger transaction id; a
 * refusal records nothing.
 */
export async function recordStandingLinkCharge(
  ctx: AppContext,
  linkId: string,
  charge: StandingCharge & { billing: { name: string | null; email: string | null } },
  idempotency: IdempotencyScope,
): Promise<{ transactionId: string; replayed: boolean }> {
  const { answer, replayed } = await recordCardCharge(ctx, {
    idempotency,
    charge,
    prepare: async () => {
      const link = await payableLink(ctx, linkId);
      assertMethod(link, 'Card');
      const amountCents = charge.amountCents;
      let payable: boolean;
      try {
        payable = link.currency === charge.currency && payableAmount(link, amountCents) === amountCents;
      } catch {
        payable = false;
      }
      if (!payable) throw refuse('charge_not_payable', { message: reconciliationMessages.amountNotPayable });
      return linkCollectible(link, { kind: 'recorded', billing: charge.billing }, amountCents, await feeFor(ctx, link.id, amountCents), () => undefined, ctx.db);
    },
  });
  return { transactionId: answer.transactionId, replayed };
}

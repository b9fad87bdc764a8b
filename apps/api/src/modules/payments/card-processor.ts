import { randomBytes } from 'node:crypto';
import { SANDBOX_TEST_CARDS, SANDBOX_UNKNOWN_CARD_MESSAGE, type AmountCents, type CardBrand, type Currency } from '@kestrel/shared';

/** What a processor needs to charge a card; the caller forgets the number and CVC afterwards. */
export interface CardCharge {
  number: string;
  brand: CardBrand;
  expMonth: number;
  expYear: number;
  cvc: string;
  amountCents: AmountCents;
  currency: Currency;
}

/** The processor's decline codes (answered 402); the partial indexes of the attempt-limits migration name them too. */
export const DECLINE_CODES = ['card_declined', 'insufficient_funds', 'incorrect_cvc'] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

export type ChargeOutcome = { approved: true; reference: string } | { approved: false; code: DeclineCode; message: string };

/** A refund's answer: done (with the processor's refund reference) or refused (nothing left the processor). */
export type RefundOutcome = { refunded: true; reference: string } | { refunded: false; message: string };

/** What the sandbox answers for a refund of its refund-refusing test card (the README lists it). */
export const SANDBOX_REFUND_REFUSED_MESSAGE = 'The card network refused the refund (sandbox test card 4000 0000 0000 5126)';

/**
 * A card network connection. Kestrel calls it outside any database transaction; when the
 * charge cannot be recorded afterwards (the payment was paid meanwhile, the database failed)
 * the charge is voided — once the books show it was not recorded (`voidUnlessRecorded`).
 */
export interface CardProcessor {
  readonly name: string;
  charge(charge: CardCharge): Promise<ChargeOutcome>;
  void(reference: string): Promise<void>;
  /**
   * Gives `amountCents` of the charge `reference` back to the card. `refundId` is the
   * processor's idempotency key: asking again about one refund (the recovery sweep after a
   * crash) answers the first outcome and never refunds twice.
   */
  refund(reference: string, amountCents: AmountCents, refundId: string): Promise<RefundOutcome>;
}

/** The published test cards live in the shared package (the web's Integration tab lists them too). */
export { SANDBOX_TEST_CARDS, SANDBOX_UNKNOWN_CARD_MESSAGE };

/**
 * The built-in sandbox: no money leaves anyone's card. The published test cards behave as
 * listed; every other (valid) number is declined, so a real card number typed into a test
 * set-up never "succeeds".
 */
export function createSandboxProcessor(): CardProcessor {
  const voided = new Set<string>();
  const refunds = new Map<string, RefundOutcome>();
  return {
    name: 'sandbox',
    async charge(charge) {
      const card = SANDBOX_TEST_CARDS.find((entry) => entry.number === charge.number);
      if (!card) return { approved: false, code: 'card_declined', message: SANDBOX_UNKNOWN_CARD_MESSAGE };
      if (card.outcome !== 'succeeds') return { approved: false, code: card.outcome, message: card.message };
      // The reference remembers a card whose refunds are refused, so the refund needs no card number.
      return { approved: true, reference: `${card.refund === 'refused' ? REFUSING_PREFIX : 'sbx_'}${randomBytes(12).toString('hex')}` };
    },
    async void(reference) {
      voided.add(reference);
    },
    async refund(reference, _amountCents, refundId) {
      const earlier = refunds.get(refundId);
      if (earlier) return earlier;
      const outcome: RefundOutcome = reference.startsWith(REFUSING_PREFIX)
        ? { refunded: false, message: SANDBOX_REFUND_REFUSED_MESSAGE }
        : { refunded: true, reference: `sbxr_${randomBytes(12).toString('hex')}` };
      refunds.set(refundId, outcome);
      return outcome;
    },
  };
}

/** The sandbox's charge references of its refund-refusing test card. */
const REFUSING_PREFIX = 'sbx_rr_';

export const sandboxProcessor = createSandboxProcessor();

/** What became of a charge whose recording failed: voided, found in the books after all, or not known. */
export type UnrecordedChargeOutcome = 'voided' | 'recorded' | 'unknown';

/**
 * Voids a charge after the work that was to record it failed, unless it was recorded after
 * all: the failure may have come after the commit (the connection lost while COMMIT's answer
 * was on its way), and voiding then would leave the books paid by a card that was never
 * charged. When the books cannot be asked (the database is down) the charge is left standing
 * and logged for reconciliation with the processor's records: a customer refunded later is
 * better than a merchant credited with money never collected.
 */
export async function voidUnlessRecorded(
  processor: CardProcessor,
  reference: string,
  isRecorded: () => Promise<boolean>,
  log: { error(object: object, message: string): void },
): Promise<UnrecordedChargeOutcome> {
  let recorded: boolean;
  try {
    recorded = await isRecorded();
  } catch (error) {
    log.error({ err: error, processor: processor.name, processorReference: reference }, 'card charge left standing for reconciliation: could not tell whether it was recorded');
    return 'unknown';
  }
  if (recorded) return 'recorded';
  await processor.void(reference);
  return 'voided';
}

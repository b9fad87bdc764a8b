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

export type DeclineCode = 'card_declined' | 'insufficient_funds' | 'incorrect_cvc';

export type ChargeOutcome = { approved: true; reference: string } | { approved: false; code: DeclineCode; message: string };

/**
 * A card network connection. Kestrel calls it outside any database transaction; when the
 * charge cannot be recorded afterwards (the payment was paid meanwhile, the database failed)
 * the charge is voided.
 */
export interface CardProcessor {
  readonly name: string;
  charge(charge: CardCharge): Promise<ChargeOutcome>;
  void(reference: string): Promise<void>;
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
  return {
    name: 'sandbox',
    async charge(charge) {
      const card = SANDBOX_TEST_CARDS.find((entry) => entry.number === charge.number);
      if (!card) return { approved: false, code: 'card_declined', message: SANDBOX_UNKNOWN_CARD_MESSAGE };
      if (card.outcome !== 'succeeds') return { approved: false, code: card.outcome, message: card.message };
      return { approved: true, reference: `sbx_${randomBytes(12).toString('hex')}` };
    },
    async void(reference) {
      voided.add(reference);
    },
  };
}

export const sandboxProcessor = createSandboxProcessor();

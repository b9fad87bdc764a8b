import { randomBytes } from 'node:crypto';
import type { AmountCents, CardBrand, Currency } from '@kestrel/shared';

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

export interface TestCard {
  number: string;
  brand: CardBrand;
  outcome: 'succeeds' | DeclineCode;
  /** What the shopper reads. */
  message: string;
}

/** The sandbox's published test cards (README and the Integration tab show this list). */
export const SANDBOX_TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'succeeds', message: 'Payment succeeds' },
  { number: '5555555555554444', brand: 'masterCard', outcome: 'succeeds', message: 'Payment succeeds' },
  { number: '4000000000000002', brand: 'visa', outcome: 'card_declined', message: 'Your card was declined.' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  { number: '4000000000000127', brand: 'visa', outcome: 'incorrect_cvc', message: "Your card's security code is incorrect." },
];

export const SANDBOX_UNKNOWN_CARD_MESSAGE = 'Your card was declined. The sandbox accepts only its published test cards.';

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

import { inferCardBrand, luhnValid, paymentMessages, type CardBrand } from '@kestrel/shared';
import { refuse } from '../../http/refusals.ts';

export interface CheckedCard {
  /** Digits only; lives in memory for the processor call and is never stored. */
  digits: string;
  brand: CardBrand;
  first6: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** "MM/YY" */
  expiresIn: string;
  masked: string;
}

/** Checks a card as typed (spaces allowed): digits, Luhn, brand (visa or masterCard, matching `brand` when sent), expiry not past. */
export function checkCard(input: { number: string; expiresIn: string; brand?: CardBrand | undefined }, now = new Date()): CheckedCard {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) throw refuse('card_number_invalid', { fields: { number: paymentMessages.cardNumberInvalid } });
  const brand = inferCardBrand(digits);
  if (brand === 'unknown') throw refuse('card_brand_unsupported', { fields: { number: paymentMessages.brandUnsupported } });
  if (input.brand && input.brand !== brand) throw refuse('card_brand_mismatch', { fields: { brand: paymentMessages.brandMismatch } });
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(input.expiresIn.trim());
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) throw refuse('card_expiry_invalid', { fields: { expiresIn: paymentMessages.expiryInvalid } });
  const year = 2000 + Number(expiry[2]);
  // A card is good through the last day of its expiry month.
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    throw refuse('card_expired', { fields: { expiresIn: paymentMessages.expired } });
  }
  const first6 = digits.slice(0, 6);
  const last4 = digits.slice(-4);
  return {
    digits,
    brand,
    first6,
    last4,
    expMonth: month,
    expYear: year,
    expiresIn: `${expiry[1]}/${expiry[2]}`,
    masked: `${first6}${'*'.repeat(digits.length - 10)}${last4}`,
  };
}

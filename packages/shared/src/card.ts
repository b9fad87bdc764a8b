import { CARD_EXPIRY_MAX_CHARS, CARD_NUMBER_MAX_CHARS, type CardBrand } from './constants.ts';

/** Brand inference from the spec: leading 4 is visa; 51-55 or 2221-2720 is masterCard. */
export function inferCardBrand(cardNumber: string): CardBrand | 'unknown' {
  const digits = cardNumber.replace(/\D/g, '');
  if (digits.startsWith('4')) return 'visa';
  const firstTwo = Number(digits.slice(0, 2));
  const firstFour = Number(digits.slice(0, 4));
  if (digits.length >= 2 && firstTwo >= 51 && firstTwo <= 55) return 'masterCard';
  if (digits.length >= 4 && firstFour >= 2221 && firstFour <= 2720) return 'masterCard';
  return 'unknown';
}

/** "4242424242424242" -> "4242 4242 4242 4242", capped at 19 characters. */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '');
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ').slice(0, CARD_NUMBER_MAX_CHARS);
}

/** "1228" -> "12/28": the slash goes in after two digits, capped at 5 characters. */
export function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, '');
  const text = digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  return text.slice(0, CARD_EXPIRY_MAX_CHARS);
}

export function luhnValid(cardNumber: string): boolean {
  const digits = cardNumber.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** "4242 4242 4242 4242" -> "424242******4242": what may be stored or shown. */
export function maskCardNumber(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, '');
  if (digits.length < 10) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

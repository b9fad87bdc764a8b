import { randomInt } from 'node:crypto';
import type { Trx } from '../../db/transaction.ts';

/** The Luhn check digit for a string of digits (the same scheme as card numbers). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  // Walking from the right, the digit next to the check digit is doubled.
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when the last digit of an all-digit string is its Luhn check digit. */
export function accountNumberValid(accountNumber: string): boolean {
  if (!/^\d{2,}$/.test(accountNumber)) return false;
  return luhnCheckDigit(accountNumber.slice(0, -1)) === Number(accountNumber.slice(-1));
}

/** Digits of a new account number before its check digit: guessing one at random hits an account rarely. */
export const ACCOUNT_NUMBER_BASE_DIGITS = 11;

/**
 * A new account number: 11 random digits (the first not 0) followed by their Luhn check
 * digit, so a mistyped digit is caught before any lookup and numbers cannot be harvested by
 * counting (numbers handed out before this, from account_number_seq, stay as they are).
 * A number already taken is drawn again; the unique index stays the final guard.
 */
export async function nextAccountNumber(trx: Trx): Promise<string> {
  for (;;) {
    const base = `${randomInt(1, 10)}${Array.from({ length: ACCOUNT_NUMBER_BASE_DIGITS - 1 }, () => randomInt(0, 10)).join('')}`;
    const candidate = `${base}${luhnCheckDigit(base)}`;
    const taken = await trx.selectFrom('accounts').select('id').where('accountNumber', '=', candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
}

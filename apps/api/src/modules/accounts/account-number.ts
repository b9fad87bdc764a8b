import { sql } from 'kysely';
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

/**
 * A new account number: the next value of account_number_seq followed by its Luhn check
 * digit, so a mistyped digit is caught before any lookup. Sequence values are never handed
 * out twice, even when the transaction that took one rolls back, so numbers are never reused.
 */
export async function nextAccountNumber(trx: Trx): Promise<string> {
  const { rows } = await sql<{ value: string }>`SELECT nextval('account_number_seq')::text AS value`.execute(trx);
  const base = rows[0]?.value;
  if (!base) throw new Error('account_number_seq returned nothing');
  return `${base}${luhnCheckDigit(base)}`;
}

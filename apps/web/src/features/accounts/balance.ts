import { CURRENCIES, formatAmountWithCode, formatMoney, parseAmount, type AmountCents, type Currency } from '@kestrel/shared';
import type { Balance } from './api.ts';

/**
 * A balance as the API sends it (major units, 5000 or 12.5) in cents, by exact decimal
 * parsing of its text; parseAmount refuses zero, which a balance may well be.
 */
export function balanceCents(amount: number): AmountCents {
  if (amount === 0) return 0;
  const parsed = parseAmount(amount);
  if (!parsed.ok) throw new Error(`Unexpected balance amount from the server: ${amount}`);
  return parsed.cents;
}

/** The header button's form: "5,000.00 USD" (two decimals, then the code). */
export function balanceWithCode(balance: Balance): string {
  return formatAmountWithCode(balanceCents(balance.amount), balance.currency);
}

const isKnownCurrency = (currency: string): currency is Currency => (CURRENCIES as readonly string[]).includes(currency);

/** "US$ 5,000.00" for USD (the spec's prefix); other codes as "5,000.00 EUR". */
export function balanceWithPrefix(balance: Balance): string {
  const cents = balanceCents(balance.amount);
  return isKnownCurrency(balance.currency) ? formatMoney(cents, balance.currency) : formatAmountWithCode(cents, balance.currency);
}

import { CURRENCY_PREFIX, formatAmount, parseAmount, type AmountCents, type Currency } from '@kestrel/shared';

/**
 * The API's JSON carries amounts in major units (12.5). These turn them into cents through
 * `parseAmount`'s exact decimal parsing (never `amount * 100`), accepting the zero and the
 * negative values that balances and fees can hold and that a transfer amount cannot.
 */
export function majorToCents(amount: number): AmountCents | undefined {
  if (amount === 0) return 0;
  const parsed = parseAmount(Math.abs(amount));
  if (!parsed.ok) return undefined;
  return amount < 0 ? -parsed.cents : parsed.cents;
}

function isKnownCurrency(currency: string): currency is Currency {
  return Object.hasOwn(CURRENCY_PREFIX, currency);
}

/** An API amount as the spec shows money: 'US$ 1,234.50' (or '12.50 EUR' for a currency without a prefix). */
export function formatApiMoney(amount: number, currency: string): string {
  const cents = majorToCents(amount);
  if (cents === undefined) return `${amount} ${currency}`;
  return isKnownCurrency(currency) ? `${CURRENCY_PREFIX[currency]} ${formatAmount(cents)}` : `${formatAmount(cents)} ${currency}`;
}

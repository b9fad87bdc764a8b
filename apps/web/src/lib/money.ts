import { formatMoney, majorToCents, type Cents, type Currency } from '@kestrel/shared';

/*
 * The web app's one converter and one formatter for money the API sends. The API's JSON
 * carries major units (12.5); they become integer cents here by exact decimal parsing
 * (`majorToCents`), never `amount * 100`. Amounts the user types are parsed by the shared
 * `amountCents` schema inside the forms' zod schemas, not here.
 */

/** An API amount (balance, fee, transaction amount: zero and negatives allowed) in cents. */
export function apiCents(amount: number): Cents {
  const cents = majorToCents(amount);
  // The response contract says whole cents; anything else is a server bug to surface, not to round.
  if (cents === undefined) throw new Error(`The server sent an amount that is not whole cents: ${amount}`);
  return cents;
}

/**
 * An API amount as the spec shows money: 'US$ 1,234.50', or with style 'code' the header
 * balance's '1,234.50 USD'.
 */
export function formatApiMoney(amount: number, currency: Currency, style: 'prefix' | 'code' = 'prefix'): string {
  return formatMoney(apiCents(amount), currency, { style });
}

import { CURRENCIES, CURRENCY_PREFIX, type Currency } from './constants.ts';

/**
 * Money is an integer number of minor units (cents). 123.45 USD is 12345.
 * Conversion happens only at the edges, by exact decimal parsing of text; never by
 * multiplying a float.
 */
declare const centsBrand: unique symbol;
/**
 * An integer number of cents, signed (a posting that takes money is negative cents). Branded
 * so a plain or major-unit number (12.5) cannot be passed where cents are meant: a value
 * becomes `Cents` only through `parseAmount`/`amountCents` (exact decimal parsing, in the
 * contracts), `asCents` (an integer that already is cents, e.g. a bigint column) or the
 * arithmetic below. The type runs from the contract through the fees to the ledger's postings
 * and the money functions' wrappers.
 */
export type Cents = number & { readonly [centsBrand]: 'Cents' };

/** An integer that already counts cents (a database column, a sum of cents) as `Cents`. */
export function asCents(value: number | bigint | string): Cents {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`Not a whole number of cents: ${String(value)}`);
  return n as Cents;
}

/*
 * Arithmetic on cents that stays `Cents` (`a + b` on two branded numbers is a plain number).
 * Each result is checked to be a safe integer, like `asCents`.
 */
export const addCents = (a: Cents, b: Cents): Cents => asCents(a + b);
export const subtractCents = (a: Cents, b: Cents): Cents => asCents(a - b);
export const negateCents = (a: Cents): Cents => asCents(-a);
/** `a` taken `times` times (a unit price by a whole quantity). */
export const multiplyCents = (a: Cents, times: number): Cents => {
  if (!Number.isSafeInteger(times)) throw new RangeError(`Not a whole quantity: ${String(times)}`);
  return asCents(a * times);
};
export const sumCents = (values: Iterable<Cents>): Cents => {
  let sum = 0;
  for (const value of values) sum += value;
  return asCents(sum);
};
export const ZERO_CENTS = asCents(0);

/** Largest amount we accept: keeps every sum well inside Number.MAX_SAFE_INTEGER and bigint columns. */
export const MAX_AMOUNT_CENTS = asCents(1_000_000_000_00); // one billion major units

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

export type ParseResult = { ok: true; cents: Cents } | { ok: false; reason: 'format' | 'precision' | 'zero' | 'range' };

/**
 * Parses a major-unit amount ("12.5", "12.50", 12.5) into cents exactly.
 * Numbers are converted through their shortest decimal text (12.5 -> "12.5"), which is
 * exact for every value a JSON client can mean with at most two decimals.
 */
export function parseAmount(input: string | number): ParseResult {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'format' };
    text = String(input);
    if (/e/i.test(text)) return { ok: false, reason: input > 1 ? 'range' : 'precision' };
  } else {
    text = input.trim();
  }
  if (text.startsWith('-')) return { ok: false, reason: 'range' };
  const tooPrecise = /^\d+\.\d{3,}$/.test(text);
  if (tooPrecise) return { ok: false, reason: 'precision' };
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, reason: 'format' };
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (whole.length > 12) return { ok: false, reason: 'range' };
  const cents = Number(whole) * 100 + Number(fraction);
  if (cents === 0) return { ok: false, reason: 'zero' };
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, reason: 'range' };
  return { ok: true, cents: cents as Cents };
}

/**
 * Major units → cents for amounts the API sends (balances, fees, transaction amounts): the
 * same exact decimal parsing, but zero and negative values are fine here. Undefined when the
 * number cannot be whole cents (more than two decimals, not finite).
 */
export function majorToCents(amount: number): Cents | undefined {
  if (amount === 0) return 0 as Cents;
  const parsed = parseAmount(Math.abs(amount));
  if (!parsed.ok) return undefined;
  return (amount < 0 ? -parsed.cents : parsed.cents) as Cents;
}

/** 12345 -> "123.45" (no grouping; for inputs and API payloads). */
export function centsToDecimalString(cents: Cents): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const text = `${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** 12345 -> 123.45, for JSON bodies that carry major units as numbers (the spec's shape). */
export function centsToMajor(cents: Cents): number {
  return Number(centsToDecimalString(cents));
}

/** 123456 -> "1,234.56". */
export function formatAmount(cents: Cents): string {
  const [whole = '0', fraction = '00'] = centsToDecimalString(Math.abs(cents) as Cents).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${grouped}.${fraction}`;
}

/**
 * The one money formatter. 500000, USD -> "US$ 5,000.00" (the spec's prefix form), or with
 * `{ style: 'code' }` "5,000.00 USD" (the header balance button's form).
 */
export function formatMoney(cents: Cents, currency: Currency, options: { style?: 'prefix' | 'code' } = {}): string {
  return options.style === 'code' ? `${formatAmount(cents)} ${currency}` : `${CURRENCY_PREFIX[currency]} ${formatAmount(cents)}`;
}

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/** A currency code read from storage or an answer. An unknown code is an error, never silently USD. */
export function asCurrency(value: string): Currency {
  if (!isCurrency(value)) throw new RangeError(`Unsupported currency: ${value}`);
  return value;
}

import { CURRENCY_PREFIX, type Currency } from './constants.ts';

/**
 * Money is an integer number of minor units (cents). 123.45 USD is 12345.
 * Conversion happens only at the edges, by exact decimal parsing of text; never by
 * multiplying a float.
 */
export type AmountCents = number;

/** Largest amount we accept: keeps every sum well inside Number.MAX_SAFE_INTEGER and bigint columns. */
export const MAX_AMOUNT_CENTS: AmountCents = 1_000_000_000_00; // one billion major units

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

export type ParseResult = { ok: true; cents: AmountCents } | { ok: false; reason: 'format' | 'precision' | 'zero' | 'range' };

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
  return { ok: true, cents };
}

/** 12345 -> "123.45" (no grouping; for inputs and API payloads). */
export function centsToDecimalString(cents: AmountCents): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const text = `${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** 12345 -> 123.45, for JSON bodies that carry major units as numbers (the spec's shape). */
export function centsToMajor(cents: AmountCents): number {
  return Number(centsToDecimalString(cents));
}

/** 123456 -> "1,234.56". */
export function formatAmount(cents: AmountCents): string {
  const [whole = '0', fraction = '00'] = centsToDecimalString(Math.abs(cents)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${grouped}.${fraction}`;
}

/** 500000, USD -> "US$ 5,000.00". */
export function formatMoney(cents: AmountCents, currency: Currency = 'USD'): string {
  return `${CURRENCY_PREFIX[currency]} ${formatAmount(cents)}`;
}

/** 500000, USD -> "5,000.00 USD" (the header balance button's form). */
export function formatAmountWithCode(cents: AmountCents, currency: string): string {
  return `${formatAmount(cents)} ${currency}`;
}

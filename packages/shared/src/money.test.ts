import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { amountCents } from './money-schema.ts';
import { addCents, asCents, centsToDecimalString, centsToMajor, formatMoney, majorToCents, MAX_AMOUNT_CENTS, multiplyCents, negateCents, parseAmount, subtractCents, sumCents } from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.01', 1],
    ['100', 10000],
    [12.5, 1250],
    [0.1, 10],
    [1234567.89, 123456789],
    ['  7.05 ', 705],
  ])('parses %s exactly to %i cents', (input, cents) => {
    expect(parseAmount(input)).toEqual({ ok: true, cents });
  });

  it.each([
    ['1.234', 'precision'],
    [0.001, 'precision'],
    ['0', 'zero'],
    ['0.00', 'zero'],
    ['-5', 'range'],
    [-5, 'range'],
    ['abc', 'format'],
    ['', 'format'],
    ['1e5', 'format'],
    ['12.', 'format'],
    [Number.NaN, 'format'],
    [Number.POSITIVE_INFINITY, 'format'],
    ['10000000000000', 'range'],
    [1e21, 'range'],
  ])('refuses %s (%s)', (input, reason) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason });
  });

  it('refuses anything above the maximum', () => {
    expect(parseAmount(centsToDecimalString(MAX_AMOUNT_CENTS))).toEqual({ ok: true, cents: MAX_AMOUNT_CENTS });
    expect(parseAmount(centsToDecimalString(asCents(MAX_AMOUNT_CENTS + 1)))).toEqual({ ok: false, reason: 'range' });
  });

  it('round-trips every cent value through text and through a JSON number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }).map(asCents), (cents) => {
        expect(parseAmount(centsToDecimalString(cents))).toEqual({ ok: true, cents });
        expect(parseAmount(centsToMajor(cents))).toEqual({ ok: true, cents });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatting', () => {
  it('shows US$ with grouping and two decimals', () => {
    expect(formatMoney(asCents(500000), 'USD')).toBe('US$ 5,000.00');
    expect(formatMoney(asCents(1), 'USD')).toBe('US$ 0.01');
    expect(formatMoney(asCents(123456789), 'USD')).toBe('US$ 1,234,567.89');
    expect(formatMoney(asCents(-1250), 'USD')).toBe('US$ -12.50');
  });
  it('shows the header balance as amount then code', () => {
    expect(formatMoney(asCents(250000), 'USD', { style: 'code' })).toBe('2,500.00 USD');
    expect(formatMoney(asCents(0), 'USD', { style: 'code' })).toBe('0.00 USD');
  });
});

describe('amountCents schema', () => {
  const schema = amountCents('Amount is required!', 'bad amount');
  const messageOf = (input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? result.data : result.error.issues.map((issue) => issue.message).join(' | ');
  };
  it('turns decimal text and JSON numbers into integer cents', () => {
    expect(messageOf('12.50')).toBe(1250);
    expect(messageOf(' 0.29 ')).toBe(29);
    expect(messageOf(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(messageOf(1234567.89)).toBe(123456789);
  });
  it('refuses empty, zero, negative, more than two decimals and over the maximum', () => {
    expect(messageOf('')).toBe('Amount is required!');
    expect(messageOf(undefined)).toBe('Amount is required!');
    for (const bad of ['0', 0, '-1', -1, '1.234', 0.001, 'abc', centsToDecimalString(asCents(MAX_AMOUNT_CENTS + 1))]) {
      expect(messageOf(bad)).toBe('bad amount');
    }
  });
  it('composes into object schemas with the parsed type', () => {
    const body = z.object({ balance: schema });
    expect(body.parse({ balance: '7.05' })).toEqual({ balance: 705 });
  });
});

describe('majorToCents (amounts the API sends)', () => {
  it('is exact and accepts zero and negative values', () => {
    expect(majorToCents(0.29)).toBe(29);
    expect(majorToCents(4974.5)).toBe(497450);
    expect(majorToCents(0)).toBe(0);
    expect(majorToCents(-12.5)).toBe(-1250);
  });
  it('refuses what is not whole cents', () => {
    expect(majorToCents(0.001)).toBeUndefined();
    expect(majorToCents(Number.NaN)).toBeUndefined();
  });
});

describe('arithmetic on Cents', () => {
  it('adds, subtracts, negates, multiplies and sums whole cents', () => {
    expect(addCents(asCents(1250), asCents(51))).toBe(1301);
    expect(subtractCents(asCents(2550), asCents(2600))).toBe(-50);
    expect(negateCents(asCents(1999))).toBe(-1999);
    expect(multiplyCents(asCents(1999), 3)).toBe(5997);
    expect(sumCents([asCents(-2550), asCents(2499), asCents(51)])).toBe(0);
    expect(sumCents([])).toBe(0);
  });

  it('refuses a result past the safe integer range and a quantity that is not whole', () => {
    expect(() => addCents(asCents(Number.MAX_SAFE_INTEGER), asCents(1))).toThrow(RangeError);
    expect(() => multiplyCents(MAX_AMOUNT_CENTS, 1_000_000)).toThrow(RangeError);
    expect(() => multiplyCents(asCents(100), 1.5)).toThrow(/Not a whole quantity/);
  });
});

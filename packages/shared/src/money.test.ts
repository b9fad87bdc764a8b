import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimalString, centsToMajor, formatAmountWithCode, formatMoney, MAX_AMOUNT_CENTS, parseAmount } from './money.ts';

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
    expect(parseAmount(centsToDecimalString(MAX_AMOUNT_CENTS + 1))).toEqual({ ok: false, reason: 'range' });
  });

  it('round-trips every cent value through text and through a JSON number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }), (cents) => {
        expect(parseAmount(centsToDecimalString(cents))).toEqual({ ok: true, cents });
        expect(parseAmount(centsToMajor(cents))).toEqual({ ok: true, cents });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatting', () => {
  it('shows US$ with grouping and two decimals', () => {
    expect(formatMoney(500000)).toBe('US$ 5,000.00');
    expect(formatMoney(1)).toBe('US$ 0.01');
    expect(formatMoney(123456789)).toBe('US$ 1,234,567.89');
  });
  it('shows the header balance as amount then code', () => {
    expect(formatAmountWithCode(250000, 'USD')).toBe('2,500.00 USD');
  });
});

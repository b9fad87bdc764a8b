import { describe, expect, it } from 'vitest';
import { apiCents, formatApiMoney } from './money.ts';

describe('apiCents', () => {
  it('converts major units exactly, never through float multiplication', () => {
    expect(apiCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(apiCents(1.15)).toBe(115);
    expect(apiCents(4974.5)).toBe(497450);
    expect(apiCents(1234567.89)).toBe(123456789);
  });
  it('accepts the zero and negative amounts balances and fees can hold', () => {
    expect(apiCents(0)).toBe(0);
    expect(apiCents(-12.5)).toBe(-1250);
  });
  it('refuses what is not whole cents instead of rounding it', () => {
    expect(() => apiCents(0.001)).toThrow('not whole cents');
    expect(() => apiCents(Number.NaN)).toThrow('not whole cents');
  });
});

describe('formatApiMoney', () => {
  it("shows the spec's prefix form with grouping and two decimals", () => {
    expect(formatApiMoney(25.5, 'USD')).toBe('US$ 25.50');
    expect(formatApiMoney(0, 'USD')).toBe('US$ 0.00');
    expect(formatApiMoney(1234567.8, 'USD')).toBe('US$ 1,234,567.80');
  });
  it("shows the header balance's code form", () => {
    expect(formatApiMoney(5000, 'USD', 'code')).toBe('5,000.00 USD');
    expect(formatApiMoney(12.5, 'USD', 'code')).toBe('12.50 USD');
  });
});

import { describe, expect, it } from 'vitest';
import { formatApiMoney, majorToCents } from './amounts.ts';

describe('majorToCents', () => {
  it('converts exactly, without float multiplication', () => {
    expect(majorToCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(majorToCents(1.15)).toBe(115);
    expect(majorToCents(4974.5)).toBe(497450);
    expect(majorToCents(12)).toBe(1200);
  });

  it('accepts zero and negative balances', () => {
    expect(majorToCents(0)).toBe(0);
    expect(majorToCents(-12.5)).toBe(-1250);
  });

  it('refuses what is not an amount of cents', () => {
    expect(majorToCents(0.001)).toBeUndefined();
    expect(majorToCents(Number.NaN)).toBeUndefined();
  });
});

describe('formatApiMoney', () => {
  it('shows USD with the US$ prefix and two decimals', () => {
    expect(formatApiMoney(25.5, 'USD')).toBe('US$ 25.50');
    expect(formatApiMoney(0, 'USD')).toBe('US$ 0.00');
    expect(formatApiMoney(1234567.8, 'USD')).toBe('US$ 1,234,567.80');
  });

  it('falls back to the code for a currency without a prefix', () => {
    expect(formatApiMoney(3, 'EUR')).toBe('3.00 EUR');
  });
});

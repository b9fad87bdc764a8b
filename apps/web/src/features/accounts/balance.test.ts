import { describe, expect, it } from 'vitest';
import { balanceCents, balanceWithCode, balanceWithPrefix } from './balance.ts';

describe('balances from the API (major units)', () => {
  it('convert to cents exactly, zero included', () => {
    expect(balanceCents(0)).toBe(0);
    expect(balanceCents(5000)).toBe(500000);
    expect(balanceCents(12.5)).toBe(1250);
    expect(balanceCents(0.07)).toBe(7);
    expect(balanceCents(1234567.89)).toBe(123456789);
  });

  it('read as the header button shows them: two decimals, then the code', () => {
    expect(balanceWithCode({ currency: 'USD', amount: 5000 })).toBe('5,000.00 USD');
    expect(balanceWithCode({ currency: 'USD', amount: 0 })).toBe('0.00 USD');
    expect(balanceWithCode({ currency: 'USD', amount: 12.5 })).toBe('12.50 USD');
  });

  it('carry the US$ prefix for USD on My Account', () => {
    expect(balanceWithPrefix({ currency: 'USD', amount: 2500 })).toBe('US$ 2,500.00');
    expect(balanceWithPrefix({ currency: 'EUR', amount: 1 })).toBe('1.00 EUR');
  });

  it('refuse an amount no balance can have', () => {
    expect(() => balanceCents(1.234)).toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, inferCardBrand, luhnValid, maskCardNumber } from './card.ts';

describe('card helpers', () => {
  it('infers the brand as the spec says', () => {
    expect(inferCardBrand('4242 4242')).toBe('visa');
    for (const prefix of ['51', '52', '55']) expect(inferCardBrand(`${prefix}00 0000`)).toBe('masterCard');
    for (const prefix of ['2221', '2500', '2720']) expect(inferCardBrand(`${prefix} 0000`)).toBe('masterCard');
    for (const prefix of ['56', '2220', '2721', '37', '6011', '']) expect(inferCardBrand(prefix)).toBe('unknown');
  });

  it('groups card numbers in fours, capped at 19 characters', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424242424242429999')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42')).toBe('4242 42');
  });

  it('puts the slash in the expiry after two digits, capped at 5', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('122899')).toBe('12/28');
  });

  it('checks Luhn', () => {
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('5555 5555 5555 4444')).toBe(true);
    expect(luhnValid('4242 4242 4242 4241')).toBe(false);
    expect(luhnValid('42')).toBe(false);
  });

  it('masks all but the first six and last four digits', () => {
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('424242******4242');
  });
});

import { describe, expect, it } from 'vitest';
import { ageInYears, formatDateTime } from './dates.ts';

describe('dates', () => {
  it('formats as long month, ordinal day, year, 12-hour time', () => {
    const local = new Date(2026, 10, 22, 14, 5);
    expect(formatDateTime(local)).toBe('November 22nd, 2026 2:05 PM');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 30))).toBe('January 1st, 2026 12:30 AM');
  });

  it('counts whole years of age', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(ageInYears('2010-11-22', now)).toBe(16);
    expect(ageInYears('2010-11-23', now)).toBe(15);
    expect(ageInYears('1990-01-01', now)).toBe(36);
  });
});

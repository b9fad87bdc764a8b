import { describe, expect, it } from 'vitest';
import { newTransactionId, TRANSACTION_ID_ALPHABET } from './ledger.service.ts';

describe('newTransactionId', () => {
  it('is always TNX and 16 characters of the fixed 32-symbol alphabet (100,000 samples)', () => {
    const samples = 100_000;
    const pattern = new RegExp(`^TNX[${TRANSACTION_ID_ALPHABET}]{16}$`);
    const seen = new Set<string>();
    const symbolCounts = new Map<string, number>();
    for (let i = 0; i < samples; i += 1) {
      const id = newTransactionId();
      // One assertion per sample would be slow; collect the first misfit instead.
      if (!pattern.test(id)) expect(id).toMatch(pattern);
      seen.add(id);
      for (const symbol of id.slice(3)) symbolCounts.set(symbol, (symbolCounts.get(symbol) ?? 0) + 1);
    }
    expect(TRANSACTION_ID_ALPHABET).toHaveLength(32);
    expect(new Set(TRANSACTION_ID_ALPHABET).size).toBe(32);
    // 80 random bits: no repeat in 100,000 draws.
    expect(seen.size).toBe(samples);
    // Every symbol is used about equally often (1/32 of 1.6 million symbols is 50,000).
    expect(symbolCounts.size).toBe(32);
    for (const count of symbolCounts.values()) expect(Math.abs(count - 50_000)).toBeLessThan(2_500);
  });
});

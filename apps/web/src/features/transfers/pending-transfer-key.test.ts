import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PENDING_KEY_MAX_AGE_MS, pendingTransferKey, settlePendingTransfer } from './pending-transfer-key.ts';

/** sessionStorage as the browser has it: string values, per tab. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const transfer = { debitAccountKey: 'alice', creditAccountKey: 'bob', currency: 'USD' as const, balance: '12.50' };

beforeEach(() => {
  vi.stubGlobal('window', { sessionStorage: new MemoryStorage() });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the pending transfer key', () => {
  it('is the same for the same transfer until an answer settles it (a reload reads it back)', () => {
    const first = pendingTransferKey(transfer);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(pendingTransferKey({ ...transfer, creditAccountKey: 'BOB' })).toBe(first);
    settlePendingTransfer(transfer);
    expect(pendingTransferKey(transfer)).not.toBe(first);
  });

  it('differs per sender, recipient, currency and amount', () => {
    const key = pendingTransferKey(transfer);
    expect(pendingTransferKey({ ...transfer, balance: '12.51' })).not.toBe(key);
    expect(pendingTransferKey({ ...transfer, creditAccountKey: 'carol' })).not.toBe(key);
    expect(pendingTransferKey({ ...transfer, debitAccountKey: 'alice-biz' })).not.toBe(key);
    expect(pendingTransferKey(transfer)).toBe(key);
  });

  it('is not reused after a day, when the server may have forgotten it', () => {
    const start = 1_000_000;
    const key = pendingTransferKey(transfer, start);
    expect(pendingTransferKey(transfer, start + PENDING_KEY_MAX_AGE_MS - 1)).toBe(key);
    expect(pendingTransferKey(transfer, start + PENDING_KEY_MAX_AGE_MS)).not.toBe(key);
  });
});

import { useMemo, useRef } from 'react';

/**
 * A fresh Idempotency-Key for a money-moving request: a v4 UUID. `crypto.randomUUID` exists
 * only in secure contexts; a plain-http LAN address is not one.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface RequestKey {
  /** The key for this request: the same request asked again gets the same key, a changed one a new key. */
  keyFor(request: string): string;
  /** The server answered the request: the next one, even if identical, is a new request. */
  settled(): void;
}

/**
 * An Idempotency-Key that belongs to the request being asked for, not to the click: sending
 * the same request again after a lost answer reuses the key, so the server acts once; a
 * changed request gets a new key. `request` is what identifies it (e.g. the body without its
 * TPIN, as JSON).
 */
export function useRequestKey(): RequestKey {
  const pending = useRef<{ request: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(request) {
        if (pending.current?.request !== request) pending.current = { request, key: newIdempotencyKey() };
        return pending.current.key;
      },
      settled() {
        pending.current = null;
      },
    }),
    [],
  );
}

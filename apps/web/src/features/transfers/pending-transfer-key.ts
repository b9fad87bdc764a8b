import type { TransferInput } from '@kestrel/shared';
import { newIdempotencyKey } from '../../lib/idempotency-key.ts';

/*
 * The Idempotency-Key of a transfer whose answer has not arrived yet, kept in sessionStorage
 * (this tab, surviving a reload) under the transfer it belongs to: sender, recipient,
 * currency and amount. Sending the same transfer again, after a network error and even after
 * reloading the page, sends the same key, so a first attempt that did reach the server is
 * answered again instead of paying twice. The key is dropped once an answer arrives (success
 * or a refusal, which the server does not record under the key).
 */

const PREFIX = 'kestrel.pendingTransfer:';
/** A pending key older than this is not reused: the server keeps keys at least 24 hours. */
export const PENDING_KEY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

type TransferIdentity = Pick<TransferInput, 'debitAccountKey' | 'creditAccountKey' | 'currency' | 'balance'>;

function slotOf(transfer: TransferIdentity): string {
  // User names are case-insensitive; the amount is already normalised text ("12.50").
  return `${PREFIX}${JSON.stringify([transfer.debitAccountKey.toLowerCase(), transfer.creditAccountKey.toLowerCase(), transfer.currency, String(transfer.balance)])}`;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be switched off; the key then lives as long as the call.
    return undefined;
  }
}

/** The pending key of this transfer, or a new one (stored before the request goes out). */
export function pendingTransferKey(transfer: TransferIdentity, now = Date.now()): string {
  const store = storage();
  const slot = slotOf(transfer);
  try {
    const saved = store?.getItem(slot);
    if (saved) {
      const { key, at } = JSON.parse(saved) as { key?: unknown; at?: unknown };
      if (typeof key === 'string' && typeof at === 'number' && now - at < PENDING_KEY_MAX_AGE_MS) return key;
    }
  } catch {
    // An unreadable entry is replaced below.
  }
  const key = newIdempotencyKey();
  try {
    store?.setItem(slot, JSON.stringify({ key, at: now }));
  } catch {
    // Full or disabled storage: this attempt still carries the key.
  }
  return key;
}

/** The answer arrived: the next send of the same transfer is a new transfer. */
export function settlePendingTransfer(transfer: TransferIdentity): void {
  try {
    storage()?.removeItem(slotOf(transfer));
  } catch {
    // Nothing stored.
  }
}

import { asCents, paymentMessages, type Cents } from '@kestrel/shared';
import type { FastifyRequest } from 'fastify';
import { defineGuard } from '../../http/guards.ts';
import { refuse } from '../../http/refusals.ts';
import { isUuid } from '../../http/ownership.ts';
import { decryptStoreKey, storeKeyMatches } from './store-key.ts';
import { findStoreByPublicId, storeStatusOfPayment } from './stores.repository.ts';

/** The store a gateway call comes from, set by requireStoreKey. */
export interface GatewayStore {
  /** Internal id (stores.id). */
  id: string;
  /** Public id. */
  storeId: string;
  accountId: string;
  storeName: string;
  callbackUrl: string;
  /** The store's current decrypted key, for signing (even when the call used the previous one); never logged or returned. */
  storeKey: string;
  /** The owner account's gateway fee settings (fixed cents, percentage as numeric text). */
  gatewayFeeFixedCents: Cents;
  gatewayFeePercent: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the requireStoreKey guard (an onRequest hook). */
    gatewayStore: GatewayStore | null;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.length <= 200 ? text : undefined;
}

/** True when the request carries gateway credentials (used by routes open to stores and owners). */
export function hasStoreHeaders(request: FastifyRequest): boolean {
  return request.headers.storeid !== undefined || request.headers.storekey !== undefined;
}

/**
 * Pre-handler for gateway calls: the `storeId` and `storeKey` headers must name a store and
 * its key (compared in constant time), or the answer is 401 without saying which was wrong.
 * Only an Approved store may call; Pending and Rejected stores get 403 saying why.
 */
export const requireStoreKey = defineGuard('storeKey', async (request: FastifyRequest): Promise<void> => {
  const { secretKey } = request.server.ctx.config;
  const storeId = header(request, 'storeid');
  const presented = header(request, 'storekey');
  if (!storeId || !presented) throw refuse('invalid_store_credentials');
  const row = await findStoreByPublicId(request.server.ctx.db, storeId);
  // An unknown store still pays for the same two comparisons, so every failure takes the same time.
  const actual = row ? decryptStoreKey(secretKey, row.storeKeyEncrypted) : `unknown-store-${storeId}`;
  // After a rotation the replaced key is accepted until it expires (STORE_KEY_GRACE_HOURS).
  const previousValid = row?.previousStoreKeyEncrypted && row.previousStoreKeyExpiresAt && row.previousStoreKeyExpiresAt.getTime() > Date.now();
  const previous = previousValid ? decryptStoreKey(secretKey, row.previousStoreKeyEncrypted!) : `no-previous-key-${storeId}`;
  const matchesCurrent = storeKeyMatches(secretKey, actual, presented);
  const matchesPrevious = storeKeyMatches(secretKey, previous, presented) && Boolean(previousValid);
  if (!row || !(matchesCurrent || matchesPrevious)) throw refuse('invalid_store_credentials');
  if (row.status === 'Pending') throw refuse('store_pending');
  if (row.status === 'Suspended') throw refuse('store_suspended');
  if (row.status !== 'Approved') throw refuse('store_rejected', { message: paymentMessages.storeRejected(row.statusReason ?? 'no reason given') });
  request.gatewayStore = {
    id: row.id,
    storeId: row.storeId,
    accountId: row.accountId,
    storeName: row.storeName,
    callbackUrl: row.callbackUrl,
    storeKey: actual,
    gatewayFeeFixedCents: asCents(row.gatewayFeeFixedCents),
    gatewayFeePercent: row.gatewayFeePercent,
  };
});

/** The calling store; only behind requireStoreKey. */
export function gatewayStoreOf(request: FastifyRequest): GatewayStore {
  if (!request.gatewayStore) throw refuse('invalid_store_credentials');
  return request.gatewayStore;
}

/**
 * Pre-handler for the checkout's public routes (by `:urlId` or `:paymentId`): a suspended
 * store's checkout answers 403 store_suspended, as its gateway calls do. Runs after the
 * params are validated; an unknown payment passes on to the route's own 404.
 */
export async function refuseSuspendedStoreCheckout(request: FastifyRequest): Promise<void> {
  const { urlId, paymentId } = request.params as { urlId?: string; paymentId?: string };
  let by: { paymentId: string } | { urlId: string };
  if (paymentId !== undefined) {
    if (!isUuid(paymentId)) return;
    by = { paymentId };
  } else if (urlId !== undefined) by = { urlId };
  else return;
  const store = await storeStatusOfPayment(request.server.ctx.db, by);
  if (store?.status === 'Suspended') throw refuse('store_suspended');
}

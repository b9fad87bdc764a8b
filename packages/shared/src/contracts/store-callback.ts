import { z } from 'zod';

/*
 * The store callback: what Kestrel POSTs to a store's callbackURL when a payment settles, and
 * the same fields on the customer's signed return address. The body is signed with the store
 * key: header `Kestrel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * `@kestrel/sdk` verifies both (webhooks.verify, webhooks.verifyRedirect).
 */

export const STORE_SIGNATURE_HEADER = 'Kestrel-Signature';

export const storeCallbackEvent = z.object({
  paymentStatus: z.enum(['success', 'failed']),
  tnxId: z.string().nullable().describe('The ledger transaction of a successful payment'),
  currency: z.string(),
  amount: z.number().describe('Major units, e.g. 12.5'),
  orderId: z.string(),
  paymentId: z.string(),
});
export type StoreCallbackEvent = z.infer<typeof storeCallbackEvent>;

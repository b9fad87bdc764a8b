import type { Trx } from '../../db/transaction.ts';
import { callbackBody, type CallbackPayload } from './signing.ts';

/**
 * Queues a callback to the store in the caller's transaction (the outbox): it is sent by the
 * delivery worker only if the payment change commits, and never from inside a transaction.
 */
export async function queueCallback(trx: Trx, input: { storeId: string; paymentId: string; targetUrl: string; payload: CallbackPayload }): Promise<void> {
  await trx
    .insertInto('callbackDeliveries')
    .values({ storeId: input.storeId, paymentId: input.paymentId, targetUrl: input.targetUrl, body: callbackBody(input.payload) })
    .execute();
}

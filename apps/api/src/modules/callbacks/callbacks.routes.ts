import { callbackDeliveryView, resentDelivery, storeIdParams } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { listDeliveries, resendDelivery } from './callbacks.service.ts';
import { deliverDueCallbacks } from './worker.ts';
import { refusals } from '../../http/refusals.ts';

export const callbacksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payment_gateway_store/:storeId/callbacks',
    {
      onRequest: requireUser,
      schema: {
        tags: ['stores'],
        summary: "The store's last 20 callback deliveries, newest first, with every attempt (owner only)",
        params: storeIdParams,
        response: { 200: successEnvelope(z.array(callbackDeliveryView)), ...refusals('store_not_found') },
      },
    },
    async (request) => ok(await listDeliveries(app.ctx, callerId(request), request.params.storeId)),
  );

  app.post(
    '/payment_gateway_store/:storeId/callbacks/:deliveryId/resend',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['stores'],
        summary: 'Send a callback again now, signed afresh (owner only)',
        params: storeIdParams.extend({ deliveryId: z.string().max(20) }),
        response: { 200: successEnvelope(resentDelivery), ...refusals('delivery_not_found', 'store_not_found') },
      },
    },
    async (request) => {
      const id = await resendDelivery(app.ctx, callerId(request), request.params.storeId, request.params.deliveryId, clientIp(request));
      // Try it at once rather than at the worker's next tick; the worker would pick it up anyway.
      await deliverDueCallbacks(app.ctx, { deliveryIds: [id] });
      return ok({ _id: String(id) }, 'Callback sent again');
    },
  );
};

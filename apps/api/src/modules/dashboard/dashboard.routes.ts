import { accountCounters, accountKeyParams } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { accountSummary } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/:key/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "The dashboard's counters for one of the caller's accounts",
        params: accountKeyParams,
        response: { 200: successEnvelope(accountCounters), 404: errorEnvelope },
      },
    },
    async (request) => ok(await accountSummary(app.ctx, callerId(request), request.params.key)),
  );
};

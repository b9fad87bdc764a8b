import { activitiesQuery, activityGroupList } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerId, requireUser } from '../../http/guards.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { listActivities } from './activities.service.ts';
import { refusals } from '../../http/refusals.ts';

export const activitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/activities',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "An account's latest activities (at most 200), grouped by day, newest first; owner only",
        querystring: activitiesQuery,
        response: { 200: successEnvelope(activityGroupList), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await listActivities(app.ctx, callerId(request), request.query.accountId)),
  );
};

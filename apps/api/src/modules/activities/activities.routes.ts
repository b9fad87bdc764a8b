import { activitiesQuery } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, callerId } from '../../http/authenticate.ts';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
import { listActivities } from './activities.service.ts';

const activityGroup = z.object({
  _id: z.string().describe('The UTC calendar day, YYYY-MM-DD'),
  activities: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      comment: z.string().nullable(),
      date: z.string().describe('ISO 8601 time'),
      account: z.string().describe('The account id'),
    }),
  ),
});

export const activitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/activities',
    {
      preHandler: authenticate,
      schema: {
        tags: ['accounts'],
        summary: "An account's latest activities (at most 200), grouped by day, newest first; owner only",
        querystring: activitiesQuery,
        response: { 200: successEnvelope(z.array(activityGroup)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listActivities(app.ctx, callerId(request), request.query.accountId)),
  );
};

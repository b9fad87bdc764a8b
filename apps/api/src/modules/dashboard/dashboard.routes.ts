import { accountChart, accountCounters, accountKeyParams } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { onReadDb } from '../../db/read-routing.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { accountChartOf } from './dashboard-chart.ts';
import { accountSummary } from './dashboard.service.ts';
import { refusals } from '../../http/refusals.ts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/:key/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "The dashboard's counters for one of the caller's accounts",
        params: accountKeyParams,
        response: { 200: successEnvelope(accountCounters), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => accountSummary(ctx, callerId(request), request.params.key))),
  );

  app.get(
    '/account/:key/chart',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "The dashboard's chart for one of the caller's accounts: balance and money in / out per UTC day, last 30 days",
        params: accountKeyParams,
        response: { 200: successEnvelope(accountChart), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => accountChartOf(ctx, callerId(request), request.params.key))),
  );
};

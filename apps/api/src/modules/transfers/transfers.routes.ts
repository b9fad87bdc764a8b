import { recipientList, recipientSearchQuery, transferBody, transferMessages, transferResult } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { listRecentRecipients, searchRecipients } from './recipients.service.ts';
import { transferBalance } from './transfers.service.ts';

export const transfersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/search',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['transfers'],
        summary: 'Find a recipient by account number, e-mail, phone, user name or name',
        querystring: recipientSearchQuery,
        response: { 200: successEnvelope(recipientList) },
      },
    },
    async (request) => ok(await searchRecipients(app.ctx, callerId(request), request.query.query)),
  );

  app.get(
    '/account/transfer_balance/recent/:accountNumber',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transfers'],
        summary: 'The latest distinct recipients of one of your accounts',
        params: z.object({ accountNumber: z.string() }),
        response: { 200: successEnvelope(recipientList) },
      },
    },
    async (request) => ok(await listRecentRecipients(app.ctx, callerId(request), request.params.accountNumber)),
  );

  app.post(
    '/account/transfer_balance',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['transfers'],
        summary: 'Send money from one of your accounts to another Kestrel account',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and moves no money.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: transferBody,
        response: { 200: successEnvelope(transferResult) },
      },
    },
    async (request, reply) => {
      const { result, replayed } = await transferBalance(app.ctx, callerId(request), request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(result, transferMessages.success);
    },
  );
};

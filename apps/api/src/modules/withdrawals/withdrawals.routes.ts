import {
  createWithdrawalBody,
  failWithdrawalBody,
  operatorWithdrawalsQuery,
  operatorWithdrawalView,
  withdrawalAccountParams,
  withdrawalIdParams,
  withdrawalView,
  withdrawMessages,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireOperator, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { createWithdrawal, listWithdrawalsForOperator, listWithdrawals, moveWithdrawal } from './withdrawals.service.ts';

/** Bank withdrawals: the holder's routes and the operators' lifecycle routes. */
export const withdrawalsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/bank-withdraw/create',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['withdrawals'],
        summary: 'Ask for a bank withdrawal from one of your accounts; the amount is held until an operator pays it out or fails it',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and holds no more money.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: createWithdrawalBody,
        response: { 201: successEnvelope(withdrawalView), 400: errorEnvelope, 404: errorEnvelope, 423: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { result, replayed } = await createWithdrawal(app.ctx, callerId(request), request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(ok(result, withdrawMessages.pending));
    },
  );

  app.get(
    '/bank-withdraw/account/:accountNumber',
    {
      preHandler: requireUser,
      schema: {
        tags: ['withdrawals'],
        summary: "One of your accounts' bank withdrawals, newest first (bank account numbers masked)",
        params: withdrawalAccountParams,
        response: { 200: successEnvelope(z.array(withdrawalView)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listWithdrawals(app.ctx, callerId(request), request.params.accountNumber)),
  );

  app.get(
    '/operator/withdrawals',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Bank withdrawals, oldest first, optionally of one status (operators only)',
        querystring: operatorWithdrawalsQuery,
        response: { 200: successEnvelope(z.array(operatorWithdrawalView)) },
      },
    },
    async (request) => ok(await listWithdrawalsForOperator(app.ctx, request.query.status)),
  );

  const moves = [
    { path: 'processing', action: 'processing', summary: 'Pending → Processing', message: withdrawMessages.processing },
    { path: 'complete', action: 'complete', summary: 'Processing → Completed: the money has been paid out', message: withdrawMessages.completed },
  ] as const;
  for (const move of moves) {
    app.post(
      `/operator/withdrawals/:id/${move.path}`,
      {
        preHandler: requireOperator,
        schema: {
          tags: ['operator'],
          summary: `${move.summary} (operators only)`,
          params: withdrawalIdParams,
          response: { 200: successEnvelope(operatorWithdrawalView), 404: errorEnvelope, 409: errorEnvelope },
        },
      },
      async (request) => ok(await moveWithdrawal(app.ctx, callerId(request), request.params.id, move.action, clientIp(request)), move.message),
    );
  }

  app.post(
    '/operator/withdrawals/:id/fail',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Processing → Failed: the money goes back to the wallet; a reason is required (operators only)',
        params: withdrawalIdParams,
        body: failWithdrawalBody,
        response: { 200: successEnvelope(operatorWithdrawalView), 400: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope },
      },
    },
    async (request) =>
      ok(await moveWithdrawal(app.ctx, callerId(request), request.params.id, 'fail', clientIp(request), request.body.reason), withdrawMessages.failed),
  );
};

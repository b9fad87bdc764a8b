import {
  cancelWithdrawalBody,
  createWithdrawalBody,
  withdrawalCounters,
  withdrawalDetails as withdrawalDetailsSchema,
  withdrawalListQuery,
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
import { onReadDb } from '../../db/read-routing.ts';
import { callerId, requireOperator, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { createWithdrawal, listWithdrawalsForOperator, listWithdrawals, moveWithdrawal, withdrawalCountersOf } from './withdrawals.service.ts';
import { cancelWithdrawal, withdrawalDetails } from './withdrawal-cancel.service.ts';
import { refusals } from '../../http/refusals.ts';

/** Bank withdrawals: the holder's routes and the operators' lifecycle routes. */
export const withdrawalsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/bank-withdraw/create',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['withdrawals'],
        summary: 'Ask for a bank withdrawal from one of your accounts; the amount is held until an operator pays it out or fails it',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and holds no more money.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: createWithdrawalBody,
        response: { 201: successEnvelope(withdrawalView), ...refusals('step_up_required', 'step_up_invalid', 'step_up_rate_limited', 'account_not_found', 'idempotency_key_reused', 'insufficient_balance', 'invalid_idempotency_key', 'money_movement_locked', 'tpin_incorrect', 'tpin_locked') },
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
      onRequest: requireUser,
      schema: {
        tags: ['withdrawals'],
        summary: "One of your accounts' bank withdrawals, newest first (bank account numbers masked)",
        description: 'Paged by keyset: `limit` withdrawals (at most 100; without it the whole list, up to 500), and the `_id` of the last one shown as `cursor` for the older ones. An empty page is the end.',
        params: withdrawalAccountParams,
        querystring: withdrawalListQuery,
        response: { 200: successEnvelope(z.array(withdrawalView)), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listWithdrawals(ctx, callerId(request), request.params.accountNumber, request.query))),
  );

  app.get(
    '/bank-withdraw/account/:accountNumber/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['withdrawals'],
        summary: "The withdraw list's counters (Completed, Pending, Total Withdraw, Failed) over all of one of your accounts' withdrawals",
        params: withdrawalAccountParams,
        response: { 200: successEnvelope(withdrawalCounters), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => withdrawalCountersOf(ctx, callerId(request), request.params.accountNumber))),
  );

  app.get(
    '/bank-withdraw/details/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['withdrawals'],
        summary: 'One of your withdrawals with its status history (bank account number masked)',
        params: withdrawalIdParams,
        response: { 200: successEnvelope(withdrawalDetailsSchema), ...refusals('withdrawal_not_found') },
      },
    },
    async (request) => ok(await withdrawalDetails(app.ctx, callerId(request), request.params.id)),
  );

  app.post(
    '/bank-withdraw/cancel/:id',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['withdrawals'],
        summary: 'Cancel one of your Pending withdrawals (TPIN required); the held money returns to the wallet. 409 once an operator has moved it on',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and returns the money once.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        params: withdrawalIdParams,
        body: cancelWithdrawalBody,
        response: { 200: successEnvelope(withdrawalView), ...refusals('account_not_found', 'idempotency_key_reused', 'invalid_idempotency_key', 'money_movement_locked', 'tpin_incorrect', 'tpin_locked', 'withdrawal_not_found', 'withdrawal_status_conflict') },
      },
    },
    async (request, reply) => {
      const { result, replayed } = await cancelWithdrawal(app.ctx, callerId(request), request.params.id, request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(result, withdrawMessages.cancelled);
    },
  );

  app.get(
    '/operator/withdrawals',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Bank withdrawals, oldest first, optionally of one status (operators only)',
        querystring: operatorWithdrawalsQuery,
        response: { 200: successEnvelope(z.array(operatorWithdrawalView)), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listWithdrawalsForOperator(app.ctx, request.query.status)),
  );

  // Processing → Completed is in the operator module (operator.routes.ts): it applies the four-eyes rule.
  const moves = [{ path: 'processing', action: 'processing', summary: 'Pending → Processing', message: withdrawMessages.processing }] as const;
  for (const move of moves) {
    app.post(
      `/operator/withdrawals/:id/${move.path}`,
      {
        onRequest: requireOperator,
        schema: {
          tags: ['operator'],
          summary: `${move.summary} (operators only)`,
          params: withdrawalIdParams,
          response: { 200: successEnvelope(operatorWithdrawalView), ...refusals('completion_awaiting_decision', 'four_eyes_required', 'not_found', 'own_record', 'withdrawal_not_found', 'withdrawal_status_conflict') },
        },
      },
      async (request) => ok(await moveWithdrawal(app.ctx, callerId(request), request.params.id, move.action, clientIp(request)), move.message),
    );
  }

  app.post(
    '/operator/withdrawals/:id/fail',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Processing → Failed: the money goes back to the wallet; a reason is required (operators only)',
        params: withdrawalIdParams,
        body: failWithdrawalBody,
        response: { 200: successEnvelope(operatorWithdrawalView), ...refusals('completion_awaiting_decision', 'four_eyes_required', 'not_found', 'own_record', 'withdrawal_not_found', 'withdrawal_status_conflict') },
      },
    },
    async (request) =>
      ok(await moveWithdrawal(app.ctx, callerId(request), request.params.id, 'fail', clientIp(request), request.body.reason), withdrawMessages.failed),
  );
};

import { recipient, recipientList, recipientParams, recipientSearchQuery, transferBody, transferMessages, transferResult } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireUser, tokenFromHeader } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { hashToken } from '../../security/tokens.ts';
import { findRecipient, listRecentRecipients, searchRecipients } from './recipients.service.ts';
import { transferBalance } from './transfers.service.ts';
import { refusals } from '../../http/refusals.ts';

export const transfersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/search',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['transfers'],
        summary: 'Find a recipient by account number, e-mail, phone, user name or name',
        description:
          'Exact account number, e-mail, phone or user name matches come first, then matches by name (at most 20). ' +
          'Send the current account as accountNumber to leave it out; your other accounts are found like anyone else\'s.',
        querystring: recipientSearchQuery,
        response: { 200: successEnvelope(recipientList), ...refusals('rate_limited', 'search_daily_cap', 'search_not_allowed') },
      },
    },
    async (request) => ok(await searchRecipients(app.ctx, callerId(request), request.query.query, request.query.accountNumber)),
  );

  app.get(
    '/recipients/:userName',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['transfers'],
        summary: 'One recipient by exact user name (case-insensitive), for the transfer form',
        params: recipientParams,
        response: { 200: successEnvelope(recipient), ...refusals('rate_limited', 'recipient_not_found', 'search_daily_cap', 'search_not_allowed') },
      },
    },
    async (request) => ok(await findRecipient(app.ctx, callerId(request), request.params.userName)),
  );

  app.get(
    '/account/transfer_balance/recent/:accountNumber',
    {
      onRequest: requireUser,
      schema: {
        tags: ['transfers'],
        summary: 'The latest distinct recipients of one of your accounts',
        params: z.object({ accountNumber: z.string() }),
        response: { 200: successEnvelope(recipientList), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await listRecentRecipients(app.ctx, callerId(request), request.params.accountNumber)),
  );

  app.post(
    '/account/transfer_balance',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['transfers'],
        summary: 'Send money from one of your accounts to another Kestrel account',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and moves no money.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: transferBody,
        response: { 200: successEnvelope(transferResult), ...refusals('step_up_required', 'step_up_invalid', 'step_up_rate_limited', 'account_not_found', 'forbidden', 'idempotency_key_reused', 'insufficient_balance', 'invalid_idempotency_key', 'money_movement_locked', 'recipient_not_found', 'same_account', 'tpin_incorrect', 'tpin_locked', 'transfer_retry') },
      },
    },
    async (request, reply) => {
      // The ledger function checks the session again by its token's hash (the guard's lookup may be cached for a second).
      const caller = { userId: callerId(request), tokenHash: hashToken(tokenFromHeader(request.headers.authorization) ?? '') };
      const { result, replayed } = await transferBalance(app.ctx, caller, request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(result, transferMessages.success);
    },
  );
};

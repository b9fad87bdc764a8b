import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successEnvelope, transactionGroupList, transactionListParams, transactionListQuery } from '@kestrel/shared';
import { onReadDb } from '../../db/read-routing.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { ok } from '../../http/envelope.ts';
import { listAccountTransactions, TRANSACTION_LIST_LIMIT } from './transactions.service.ts';
import { refusals } from '../../http/refusals.ts';

export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/transaction/account/:accountNumber',
    {
      onRequest: requireUser,
      schema: {
        tags: ['transactions'],
        summary: `Transactions of one of your accounts, newest first, grouped by day (latest ${TRANSACTION_LIST_LIMIT})`,
        description: 'Paged: `limit` transactions (default and most 1,000); pass the `_id` of the last one shown as `cursor` for the older ones. An empty list is the end.',
        params: transactionListParams,
        querystring: transactionListQuery,
        response: { 200: successEnvelope(transactionGroupList), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listAccountTransactions(ctx, callerId(request), request.params.accountNumber, request.query))),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, callerId } from '../../http/authenticate.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { listAccountTransactions, TRANSACTION_LIST_LIMIT } from './transactions.service.ts';

const transaction = z.object({
  _id: z.string(),
  transactionId: z.string(),
  transactionFor: z.string(),
  amount: z.number(),
  currency: z.string(),
  fee: z.object({ amount: z.number(), currency: z.string() }),
  transactionAt: z.string(),
  accounts: z.array(z.object({ accountNumber: z.string(), transactionType: z.enum(['debit', 'credit']) })),
});

export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/transaction/account/:accountNumber',
    {
      preHandler: authenticate,
      schema: {
        tags: ['transactions'],
        summary: `Transactions of one of your accounts, newest first, grouped by day (latest ${TRANSACTION_LIST_LIMIT})`,
        params: z.object({ accountNumber: z.string() }),
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(TRANSACTION_LIST_LIMIT).optional() }),
        response: { 200: successEnvelope(z.array(z.object({ _id: z.string(), transactions: z.array(transaction) }))) },
      },
    },
    async (request) => ok(await listAccountTransactions(app.ctx, callerId(request), request.params.accountNumber, request.query.limit)),
  );
};

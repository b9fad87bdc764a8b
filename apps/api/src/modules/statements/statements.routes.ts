import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountStatement, statementAccountParams, statementMonthList, statementParams, statementQuery, successEnvelope } from '@kestrel/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { renderStatementPdf } from './statement-pdf.ts';
import { buildStatement, listStatementMonths } from './statements.service.ts';
import { refusals } from '../../http/refusals.ts';

export const statementsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/statement/account/:accountNumber',
    {
      onRequest: requireUser,
      schema: {
        tags: ['transactions'],
        summary: 'The months one of your accounts has a statement for',
        description: 'UTC months, newest first: the current month (its statement so far, `complete: false`), then every month back to the one the account was opened in. 404 for an account that is not yours.',
        params: statementAccountParams,
        response: { 200: successEnvelope(statementMonthList), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await listStatementMonths(app.ctx, callerId(request), request.params.accountNumber)),
  );

  app.get(
    '/statement/account/:accountNumber/:month',
    {
      onRequest: requireUser,
      schema: {
        tags: ['transactions'],
        summary: "One month's statement of one of your accounts, signed, with each movement's ledger proof",
        description:
          "Opening balance, every ledger movement of the UTC month with its running balance, closing balance, in integer cents as text. Signed with the ledger's seal key; each movement carries its inclusion proof against GET /v1/ledger/seals (null in its first minute, before it is sealed). Check it with `npm run ledger:prove -- --statement statement.json seals.json` or `verifyStatement` from @kestrel/shared.",
        params: statementParams,
        querystring: statementQuery,
        response: { 200: successEnvelope(accountStatement), ...refusals('account_not_found', 'no_statement') },
      },
    },
    async (request) => ok(await buildStatement(app.ctx, callerId(request), request.params.accountNumber, request.params.month, request.query.currency)),
  );

  app.get(
    '/statement/account/:accountNumber/:month/pdf',
    {
      onRequest: requireUser,
      schema: {
        tags: ['transactions'],
        summary: "One month's statement of one of your accounts as a PDF",
        params: statementParams,
        querystring: statementQuery,
        response: { 200: z.unknown().describe('The statement (application/pdf)'), ...refusals('account_not_found', 'no_statement') },
      },
    },
    async (request, reply) => {
      const statement = await buildStatement(app.ctx, callerId(request), request.params.accountNumber, request.params.month, request.query.currency);
      const pdf = await renderStatementPdf(statement);
      return reply
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="statement-${statement.accountNumber}-${statement.month}.pdf"`)
        .send(pdf);
    },
  );
};

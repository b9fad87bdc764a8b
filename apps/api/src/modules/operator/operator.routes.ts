import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountSearchQuery,
  accountSearchResult,
  auditLogPage,
  auditLogQuery,
  callbackDeliveryParams,
  failingCallbacksPage,
  failingCallbacksQuery,
  fundWalletBody,
  fundWalletResult,
  identityReviewList,
  ledgerHealth,
  moneyLockResult,
  operatorAccountDetail,
  operatorAccountParams,
  operatorMessages,
  operatorOverview,
  operatorResentCallback,
  reasonBody,
  requestDocumentsResult,
  verifyIdentityParams,
  verifyIdentityResult,
} from '@kestrel/shared';
import { callerId, requireOperator } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { accountDetail, fundWallet, ledgerHealth as readLedgerHealth, listAuditLog, operatorOverview as readOverview, searchAccounts, setMoneyMovementLock } from './console.service.ts';
import { listFailingCallbacks, resendFailingCallback } from './callbacks-queue.service.ts';
import { listPendingIdentityReviews, requestNewIdentityDocuments, verifyAccountIdentity } from './identity-review.service.ts';

/** Operator-only routes: the console's queues, accounts, ledger health and audit log. Everyone else is told the route does not exist. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/operator/identity-reviews',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Accounts whose identity documents wait for review (operators only)',
        response: { 200: successEnvelope(identityReviewList) },
      },
    },
    async () => ok(await listPendingIdentityReviews(app.ctx)),
  );

  app.post(
    '/operator/accounts/:accountId/identity/verify',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Mark an account's identity as verified after reviewing its documents (operators only)",
        params: verifyIdentityParams,
        response: { 200: successEnvelope(verifyIdentityResult) },
      },
    },
    async (request) => {
      await verifyAccountIdentity(app.ctx, callerId(request), request.params.accountId, clientIp(request));
      return ok({ accountId: request.params.accountId, isVerified: true as const }, 'Identity verified');
    },
  );

  app.post(
    '/operator/accounts/:accountId/identity/request-documents',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Set the reviewed identity documents aside and ask the holder for new ones, with a reason the holder sees (operators only)',
        params: operatorAccountParams,
        body: reasonBody,
        response: { 200: successEnvelope(requestDocumentsResult) },
      },
    },
    async (request) => {
      const count = await requestNewIdentityDocuments(app.ctx, callerId(request), request.params.accountId, request.body.reason, clientIp(request));
      return ok({ accountId: request.params.accountId, documentsSetAside: count }, operatorMessages.documentsRequested);
    },
  );

  app.get(
    '/operator/overview',
    {
      preHandler: requireOperator,
      schema: { tags: ['operator'], summary: 'Queue lengths: stores, withdrawals, identity reviews, failing callbacks (operators only)', response: { 200: successEnvelope(operatorOverview) } },
    },
    async () => ok(await readOverview(app.ctx)),
  );

  app.get(
    '/operator/accounts',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Find accounts by account number, user name, e-mail or phone (operators only)',
        querystring: accountSearchQuery,
        response: { 200: successEnvelope(accountSearchResult) },
      },
    },
    async (request) => ok(await searchAccounts(app.ctx, request.query.q)),
  );

  app.get(
    '/operator/accounts/:accountId',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "An account's balances, postings, activities, stores, payments and withdrawals (operators only)",
        params: operatorAccountParams,
        response: { 200: successEnvelope(operatorAccountDetail) },
      },
    },
    async (request) => ok(await accountDetail(app.ctx, request.params.accountId)),
  );

  for (const [action, locked] of [['lock', true], ['unlock', false]] as const) {
    app.post(
      `/operator/accounts/:accountId/${action}`,
      {
        preHandler: requireOperator,
        schema: {
          tags: ['operator'],
          summary: locked ? 'Lock money movement out of the account, with a reason (operators only)' : 'Unlock money movement, with a reason (operators only)',
          params: operatorAccountParams,
          body: reasonBody,
          response: { 200: successEnvelope(moneyLockResult) },
        },
      },
      async (request) =>
        ok(
          await setMoneyMovementLock(app.ctx, callerId(request), request.params.accountId, locked, request.body.reason, clientIp(request)),
          locked ? operatorMessages.locked : operatorMessages.unlocked,
        ),
    );
  }

  app.post(
    '/operator/accounts/:accountId/fund',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Credit the wallet from the funding system account (operators only)',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and moves no more money.',
        params: operatorAccountParams,
        body: fundWalletBody,
        response: { 200: successEnvelope(fundWalletResult) },
      },
    },
    async (request) => {
      const { result } = await fundWallet(app.ctx, callerId(request), request.params.accountId, request.body, idempotencyKeyOf(request), clientIp(request));
      return ok(result, operatorMessages.funded);
    },
  );

  app.get(
    '/operator/ledger-health',
    {
      preHandler: requireOperator,
      schema: { tags: ['operator'], summary: 'The ledger checks of `npm run ledger:verify`, live (operators only)', response: { 200: successEnvelope(ledgerHealth) } },
    },
    async () => ok(await readLedgerHealth(app.ctx)),
  );

  app.get(
    '/operator/audit-log',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'The audit log, newest first, filtered by actor, action, subject and time (operators only)',
        querystring: auditLogQuery,
        response: { 200: successEnvelope(auditLogPage) },
      },
    },
    async (request) => ok(await listAuditLog(app.ctx, request.query)),
  );

  app.get(
    '/operator/callbacks',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Callback deliveries failing (given up, or waiting to retry after a failed attempt), newest first, paged (operators only)',
        querystring: failingCallbacksQuery,
        response: { 200: successEnvelope(failingCallbacksPage) },
      },
    },
    async (request) => ok(await listFailingCallbacks(app.ctx, request.query)),
  );

  app.post(
    '/operator/callbacks/:deliveryId/resend',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Queue a callback delivery again, due now, to the store's current callback URL, with a reason (operators only)",
        params: callbackDeliveryParams,
        body: reasonBody,
        response: { 200: successEnvelope(operatorResentCallback) },
      },
    },
    async (request) =>
      ok(await resendFailingCallback(app.ctx, callerId(request), request.params.deliveryId, request.body.reason, clientIp(request)), operatorMessages.callbackResent),
  );
};

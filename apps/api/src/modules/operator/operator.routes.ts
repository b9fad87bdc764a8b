import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorChart as readOperatorChart } from './charts.service.ts';
import {
  approvalIdParams,
  operatorApprovalsQuery,
  operatorApprovalView,
  operatorDayTotals,
  operatorWithdrawalView,
  withdrawalIdParams,
  withdrawMessages,
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
  operatorChart,
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
import { z } from 'zod';
import { decideApproval, listApprovals, operatorDayTotals as readDayTotals, requestWithdrawalCompletion } from './approvals.service.ts';
import { fundWallet } from './funding.service.ts';
import { accountDetail, ledgerHealth as readLedgerHealth, listAuditLog, operatorOverview as readOverview, searchAccounts, setMoneyMovementLock } from './console.service.ts';
import { listFailingCallbacks, resendFailingCallback } from './callbacks-queue.service.ts';
import { listPendingIdentityReviews, requestNewIdentityDocuments, verifyAccountIdentity } from './identity-review.service.ts';
import { refusals } from '../../http/refusals.ts';

/** Operator-only routes: the console's queues, accounts, ledger health and audit log. Everyone else is told the route does not exist. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/operator/identity-reviews',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Accounts whose identity documents wait for review (operators only)',
        response: { 200: successEnvelope(identityReviewList), ...refusals('not_found') },
      },
    },
    async () => ok(await listPendingIdentityReviews(app.ctx)),
  );

  app.post(
    '/operator/accounts/:accountId/identity/verify',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Mark an account's identity as verified after reviewing its documents (operators only)",
        params: verifyIdentityParams,
        response: { 200: successEnvelope(verifyIdentityResult), ...refusals('account_not_found', 'no_identity_documents', 'not_found', 'own_record') },
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
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Set the reviewed identity documents aside and ask the holder for new ones, with a reason the holder sees (operators only)',
        params: operatorAccountParams,
        body: reasonBody,
        response: { 200: successEnvelope(requestDocumentsResult), ...refusals('account_not_found', 'identity_already_verified', 'no_identity_documents', 'not_found', 'own_record') },
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
      onRequest: requireOperator,
      schema: { tags: ['operator'], summary: 'Queue lengths: stores, withdrawals, identity reviews, failing callbacks (operators only)', response: { 200: successEnvelope(operatorOverview), ...refusals('not_found') } },
    },
    async () => ok(await readOverview(app.ctx)),
  );

  app.get(
    '/operator/charts',
    {
      onRequest: requireOperator,
      schema: { tags: ['operator'], summary: 'Payments per UTC day over the last 30 days and the callback queue (operators only)', response: { 200: successEnvelope(operatorChart), ...refusals('not_found') } },
    },
    async () => ok(await readOperatorChart(app.ctx)),
  );

  app.get(
    '/operator/accounts',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Find accounts by account number, user name, e-mail or phone (operators only)',
        querystring: accountSearchQuery,
        response: { 200: successEnvelope(accountSearchResult), ...refusals('not_found') },
      },
    },
    async (request) => ok(await searchAccounts(app.ctx, request.query.q)),
  );

  app.get(
    '/operator/accounts/:accountId',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "An account's balances, postings, activities, stores, payments and withdrawals (operators only)",
        params: operatorAccountParams,
        response: { 200: successEnvelope(operatorAccountDetail), ...refusals('account_not_found', 'not_found') },
      },
    },
    async (request) => ok(await accountDetail(app.ctx, request.params.accountId)),
  );

  for (const [action, locked] of [['lock', true], ['unlock', false]] as const) {
    app.post(
      `/operator/accounts/:accountId/${action}`,
      {
        onRequest: requireOperator,
        schema: {
          tags: ['operator'],
          summary: locked ? 'Lock money movement out of the account, with a reason (operators only)' : 'Unlock money movement, with a reason (operators only)',
          params: operatorAccountParams,
          body: reasonBody,
          response: { 200: successEnvelope(moneyLockResult), ...refusals('account_not_found', 'not_found', 'own_record') },
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
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Credit the wallet from the funding system account; above the four-eyes threshold or past your daily cap, ask a second operator (operators only)',
        description:
          'Answers 200 with the funding when one operator may do it alone, or 202 with a Pending approval request that a second, different operator approves or refuses. ' +
          'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and moves no more money.',
        params: operatorAccountParams,
        body: fundWalletBody,
        response: { 200: successEnvelope(fundWalletResult), 202: successEnvelope(operatorApprovalView), ...refusals('account_not_found', 'idempotency_key_reused', 'insufficient_balance', 'invalid_idempotency_key', 'not_found', 'own_record') },
      },
    },
    async (request, reply) => {
      const { result } = await fundWallet(app.ctx, callerId(request), request.params.accountId, request.body, idempotencyKeyOf(request), clientIp(request));
      if (result.outcome === 'pending_approval') return reply.status(202).send(ok(result.approval, operatorMessages.sentForApproval));
      const { outcome: _outcome, ...funded } = result;
      return ok(funded, operatorMessages.funded);
    },
  );

  app.post(
    '/operator/withdrawals/:id/complete',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Processing → Completed: the money has been paid out; from the four-eyes amount on, a request for a second operator (operators only)',
        description: 'Answers 200 with the completed withdrawal, or 202 with a Pending approval request when the amount needs a second operator.',
        params: withdrawalIdParams,
        response: { 200: successEnvelope(operatorWithdrawalView), 202: successEnvelope(operatorApprovalView), ...refusals('completion_already_requested', 'completion_awaiting_decision', 'four_eyes_required', 'not_found', 'own_record', 'withdrawal_not_found', 'withdrawal_status_conflict') },
      },
    },
    async (request, reply) => {
      const result = await requestWithdrawalCompletion(app.ctx, callerId(request), request.params.id, clientIp(request));
      if (result.outcome === 'pending_approval') return reply.status(202).send(ok(result.approval, withdrawMessages.completionRequested));
      return ok(result.withdrawal, withdrawMessages.completed);
    },
  );

  app.get(
    '/operator/approvals',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Four-eyes requests: Pending (oldest first, the queue) or decided (newest first) (operators only)',
        querystring: operatorApprovalsQuery,
        response: { 200: successEnvelope(z.array(operatorApprovalView)), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listApprovals(app.ctx.db, request.query.status)),
  );

  for (const [action, message] of [
    ['approve', operatorMessages.approvalApproved],
    ['refuse', operatorMessages.approvalRefused],
  ] as const) {
    app.post(
      `/operator/approvals/:approvalId/${action}`,
      {
        onRequest: requireOperator,
        schema: {
          tags: ['operator'],
          summary:
            action === 'approve'
              ? "Approve another operator's request, with a reason: the funding or payout is carried out at once, exactly once (operators only)"
              : "Refuse another operator's request, with a reason; nothing moves (operators only)",
          params: approvalIdParams,
          body: reasonBody,
          response: { 200: successEnvelope(operatorApprovalView), ...refusals('approval_not_found', 'approval_not_pending', 'completion_awaiting_decision', 'four_eyes_required', 'insufficient_balance', 'not_found', 'own_record', 'own_request', 'withdrawal_not_found', 'withdrawal_status_conflict') },
        },
      },
      async (request) => ok(await decideApproval(app.ctx, callerId(request), request.params.approvalId, action, request.body.reason, clientIp(request)), message),
    );
  }

  app.get(
    '/operator/today',
    {
      onRequest: requireOperator,
      schema: { tags: ['operator'], summary: "Today's (UTC) funding, payouts and decisions per operator (operators only)", response: { 200: successEnvelope(operatorDayTotals), ...refusals('not_found') } },
    },
    async () => ok(await readDayTotals(app.ctx)),
  );

  app.get(
    '/operator/ledger-health',
    {
      onRequest: requireOperator,
      schema: { tags: ['operator'], summary: 'The ledger checks of `npm run ledger:verify`, live (operators only)', response: { 200: successEnvelope(ledgerHealth), ...refusals('not_found') } },
    },
    async () => ok(await readLedgerHealth(app.ctx)),
  );

  app.get(
    '/operator/audit-log',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'The audit log, newest first, filtered by actor, action, subject and time (operators only)',
        querystring: auditLogQuery,
        response: { 200: successEnvelope(auditLogPage), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listAuditLog(app.ctx, request.query)),
  );

  app.get(
    '/operator/callbacks',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Callback deliveries failing (given up, or waiting to retry after a failed attempt), newest first, paged (operators only)',
        querystring: failingCallbacksQuery,
        response: { 200: successEnvelope(failingCallbacksPage), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listFailingCallbacks(app.ctx, request.query)),
  );

  app.post(
    '/operator/callbacks/:deliveryId/resend',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Queue a callback delivery again, due now, to the store's current callback URL, with a reason (operators only)",
        params: callbackDeliveryParams,
        body: reasonBody,
        response: { 200: successEnvelope(operatorResentCallback), ...refusals('delivery_not_found', 'not_found', 'own_record') },
      },
    },
    async (request) =>
      ok(await resendFailingCallback(app.ctx, callerId(request), request.params.deliveryId, request.body.reason, clientIp(request)), operatorMessages.callbackResent),
  );
};

import {
  operatorPaymentView,
  operatorRefundBody,
  ownerRefundBody,
  paymentIdParams,
  refundBody,
  refundList,
  refundMessages,
  refundView,
  type RefundView,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireOperator, requireUser } from '../../http/guards.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { storeOrOwner } from '../payments/payments.routes.ts';
import { listRefundsForStore, refundForStore } from '../payments/payment-refund.ts';
import { gatewayStoreOf, requireStoreKey } from '../stores/store-key.guard.ts';
import { listRefundsForOwner, operatorPayment, refundForOperator, refundForOwner } from './refunds.service.ts';
import { refusals } from '../../http/refusals.ts';

/*
 * Refunds (issue 23): the store API's refund and list, the owner's refund from the portal
 * (a gateway or link payment), the operator console's. Each answers the refund; a replay of
 * an Idempotency-Key answers the first refund as it is now, with `idempotent-replayed: true`.
 */

const storeSecurity = [{ storeId: [], storeKey: [] }];
const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });

/** The success message: a card refund still waiting for the processor says so. */
const messageOf = (refund: RefundView) => (refund.status === 'processing' ? refundMessages.processing : refundMessages.created);

export const refundsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/payment/refund/:paymentId',
    {
      onRequest: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Refund a payment of this store, in full or in part',
        security: storeSecurity,
        headers: z.object({ 'idempotency-key': z.string().optional().describe('Required: makes the refund safe to retry') }),
        params: paymentIdParams,
        body: refundBody,
        response: { 200: successEnvelope(refundView), ...refusals('idempotency_key_required', 'idempotency_key_reused', 'invalid_idempotency_key', 'invalid_store_credentials', 'money_movement_locked', 'payment_not_found', 'payment_not_refundable', 'refund_currency_mismatch', 'refund_declined', 'refund_exceeds_remaining', 'refund_insufficient_balance', 'refund_window_closed', 'store_pending', 'store_rejected', 'store_suspended') },
      },
    },
    async (request, reply) => {
      const { refund, replayed } = await refundForStore(app.ctx, gatewayStoreOf(request), request.params.paymentId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(refund, messageOf(refund));
    },
  );

  app.get(
    '/payment/refunds/:paymentId',
    {
      onRequest: storeOrOwner,
      schema: {
        tags: ['gateway'],
        summary: "A payment's refunds, newest first (the store by its headers, or the owner by token)",
        security: [...storeSecurity, { accessToken: [] }],
        params: paymentIdParams,
        response: { 200: successEnvelope(refundList), ...refusals('invalid_store_credentials', 'payment_not_found', 'store_pending', 'store_rejected', 'store_suspended') },
      },
    },
    async (request) =>
      ok(
        request.gatewayStore
          ? await listRefundsForStore(app.ctx, request.gatewayStore, request.params.paymentId)
          : await listRefundsForOwner(app.ctx, callerId(request), request.params.paymentId),
      ),
  );

  app.post(
    '/payment/details/:paymentId/refund',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "Refund a payment into one of your accounts (a gateway payment or a link payment), with that account's TPIN",
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: ownerRefundBody,
        response: { 200: successEnvelope(refundView), ...refusals('account_not_found', 'idempotency_key_reused', 'invalid_idempotency_key', 'money_movement_locked', 'payment_not_found', 'payment_not_refundable', 'refund_currency_mismatch', 'refund_declined', 'refund_exceeds_remaining', 'refund_insufficient_balance', 'refund_window_closed', 'tpin_incorrect', 'tpin_locked') },
      },
    },
    async (request, reply) => {
      const { refund, replayed } = await refundForOwner(app.ctx, callerId(request), request.params.paymentId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(refund, messageOf(refund));
    },
  );

  app.get(
    '/operator/payments/:paymentId',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'A gateway or link payment with its refunds',
        params: paymentIdParams,
        response: { 200: successEnvelope(operatorPaymentView), ...refusals('not_found', 'payment_not_found') },
      },
    },
    async (request) => ok(await operatorPayment(app.ctx, request.params.paymentId)),
  );

  app.post(
    '/operator/payments/:paymentId/refund',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Refund a payment on a customer's behalf (reason required; the audit log names the operator)",
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: operatorRefundBody,
        response: { 200: successEnvelope(refundView), ...refusals('idempotency_key_reused', 'invalid_idempotency_key', 'money_movement_locked', 'not_found', 'own_record', 'payment_not_found', 'payment_not_refundable', 'refund_currency_mismatch', 'refund_declined', 'refund_exceeds_remaining', 'refund_insufficient_balance', 'refund_window_closed') },
      },
    },
    async (request, reply) => {
      const { refund, replayed } = await refundForOperator(app.ctx, callerId(request), request.params.paymentId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(refund, messageOf(refund));
    },
  );
};

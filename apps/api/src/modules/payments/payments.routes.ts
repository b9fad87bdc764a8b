import {
  checkoutView,
  completeAnswer,
  kestrelPayBody,
  urlIdParams,
  completeCardBody,
  directPayBody,
  paymentIdParams,
  paymentListBody,
  paymentMessages,
  paymentResult,
  paymentView,
  storeIdParams,
  webPayAnswer,
  webPayBody,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, defineGuard, requireUser } from '../../http/guards.ts';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { gatewayStoreOf, hasStoreHeaders, requireStoreKey } from '../stores/store-key.guard.ts';
import { createPayment, getCheckout, getPaymentForOwner, payByWallet, getPaymentForStore, listAccountPayments, listStorePayments, payByCard, payDirect } from './payments.service.ts';

const storeSecurity = [{ storeId: [], storeKey: [] }];
const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
const gatewayErrors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope, 422: errorEnvelope };

/** The store (by its headers) or the signed-in owner (by token) may read a payment. */
const storeOrOwner = defineGuard('storeKeyOrUser', async (request, reply) => {
  if (hasStoreHeaders(request)) return requireStoreKey(request, reply);
  return requireUser(request, reply);
});

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.decorateRequest('gatewayStore', null);

  app.post(
    '/payment/web-pay',
    {
      preHandler: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Create a payment; answers the hosted checkout address for the customer',
        description: 'Headers storeId and storeKey (an Approved store). Send an Idempotency-Key header to make retries safe. An orderId is unique per store.',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: webPayBody,
        response: { 200: webPayAnswer, ...gatewayErrors },
      },
    },
    async (request, reply) => {
      const { payment, redirectUrl, replayed } = await createPayment(app.ctx, gatewayStoreOf(request), request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentMessages.created, redirectUrl, data: payment };
    },
  );

  app.post(
    '/payment/web-pay/redirect',
    {
      preHandler: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Create a payment and redirect (303) the customer straight to the hosted checkout',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: webPayBody,
        response: { 303: z.null().describe('Location: the checkout address'), ...gatewayErrors },
      },
    },
    async (request, reply) => {
      const { redirectUrl } = await createPayment(app.ctx, gatewayStoreOf(request), request.body, idempotencyKeyOf(request));
      return reply.redirect(redirectUrl, 303);
    },
  );

  app.post(
    '/payment/web-pay/complete/direct',
    {
      preHandler: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Server-to-server card payment: create the payment and charge the card in one call',
        description: 'A declined card answers 402 with the reason; the payment is kept with the failed attempt (its orderId is then taken).',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: directPayBody,
        response: { 200: successEnvelope(paymentResult), 402: errorEnvelope, ...gatewayErrors },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payDirect(app.ctx, gatewayStoreOf(request), request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(answer.data, paymentMessages.success);
    },
  );

  app.get(
    '/payment/paymentId/:paymentId',
    {
      preHandler: storeOrOwner,
      schema: {
        tags: ['gateway'],
        summary: 'One payment, with its masked card and failed attempts (the store by its headers, or the owner by token)',
        security: [...storeSecurity, { accessToken: [] }],
        params: paymentIdParams,
        response: { 200: successEnvelope(paymentView), 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope },
      },
    },
    async (request) =>
      ok(
        request.gatewayStore
          ? await getPaymentForStore(app.ctx, request.gatewayStore, request.params.paymentId)
          : await getPaymentForOwner(app.ctx, callerId(request), request.params.paymentId),
      ),
  );

  // Public: the hosted checkout calls it for the shopper, who has no Kestrel login.
  app.post(
    '/payment/complete/:paymentId',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['gateway'],
        summary: "The checkout's card payment (public); answers the store's signed redirect address",
        security: [],
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: completeCardBody,
        response: { 200: completeAnswer, 402: errorEnvelope, 404: errorEnvelope, ...gatewayErrors },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payByCard(app.ctx, request.params.paymentId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentMessages.success, redirectUrl: answer.redirectUrl, data: answer.data };
    },
  );

  app.post(
    '/payment/complete/kestrel/:paymentId',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['gateway'],
        summary: "The checkout's Kestrel wallet payment: the signed-in payer pays from an account they own, with its TPIN",
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: kestrelPayBody,
        response: { 200: completeAnswer, 404: errorEnvelope, 423: errorEnvelope, ...gatewayErrors },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payByWallet(app.ctx, callerId(request), request.params.paymentId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentMessages.success, redirectUrl: answer.redirectUrl, data: answer.data };
    },
  );

  app.post(
    '/payment/account',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Payments into one of your accounts, newest first',
        body: paymentListBody,
        response: { 200: successEnvelope(z.array(paymentView)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listAccountPayments(app.ctx, callerId(request), request.body.accountEmail)),
  );

  app.get(
    '/payment/store/:storeId',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: "One of your stores' payments, newest first",
        params: storeIdParams,
        response: { 200: successEnvelope(z.array(paymentView)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listStorePayments(app.ctx, callerId(request), request.params.storeId)),
  );

  // Public: the hosted checkout shows it to a shopper with no Kestrel login; the urlId (128 random bits) is the capability.
  app.get(
    '/payment/:urlId',
    {
      schema: {
        tags: ['gateway'],
        summary: 'The hosted checkout view of a payment (store name and logo, amount, status, cancel and return addresses)',
        security: [],
        params: urlIdParams,
        response: { 200: successEnvelope(checkoutView), 404: errorEnvelope },
      },
    },
    async (request) => ok(await getCheckout(app.ctx, request.params.urlId)),
  );
};

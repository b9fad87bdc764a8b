import {
  paymentChart,
  checkoutView,
  completeAnswer,
  kestrelPayBody,
  urlIdParams,
  completeCardBody,
  directPayBody,
  paymentIdParams,
  paymentCounters,
  paymentListBody,
  paymentListQuery,
  paymentMessages,
  paymentResult,
  paymentView,
  storeIdParams,
  webPayAnswer,
  webPayBody,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onReadDb } from '../../db/read-routing.ts';
import { callerId, defineGuard, requireUser } from '../../http/guards.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { clientIp } from '../../http/client-ip.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { gatewayStoreOf, hasStoreHeaders, refuseSuspendedStoreCheckout, requireStoreKey } from '../stores/store-key.guard.ts';
import { getPaymentForOwner, getPaymentForStore, listAccountPayments, listStorePayments, paymentCountersOf } from './payment-views.ts';
import { storePaymentChart } from './payment-chart.ts';
import { createPayment, getCheckout, payByWallet, payByCard, payDirect } from './payments.service.ts';
import { refusals } from '../../http/refusals.ts';

const storeSecurity = [{ storeId: [], storeKey: [] }];
const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });

const wantsJsonOnly = (accept: string | undefined) => Boolean(accept?.includes('application/json') && !accept.includes('text/html'));

/** The store (by its headers) or the signed-in owner (by token) may read a payment. */
export const storeOrOwner = defineGuard('storeKeyOrUser', async (request, reply) => {
  if (hasStoreHeaders(request)) return requireStoreKey(request, reply);
  return requireUser(request, reply);
});

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.decorateRequest('gatewayStore', null);

  app.post(
    '/payment/web-pay',
    {
      onRequest: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Create a payment; answers the hosted checkout address for the customer',
        description: 'Headers storeId and storeKey (an Approved store). Send an Idempotency-Key header to make retries safe. An orderId is unique per store.',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: webPayBody,
        response: { 200: webPayAnswer, ...refusals('fee_too_high', 'idempotency_key_reused', 'invalid_idempotency_key', 'invalid_store_credentials', 'order_id_taken', 'store_pending', 'store_rejected', 'store_suspended') },
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
      onRequest: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Create a payment and redirect (303) the customer straight to the hosted checkout',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: webPayBody,
        response: { 200: webPayAnswer, 303: z.null().describe('Location: the checkout address'), ...refusals('fee_too_high', 'idempotency_key_reused', 'invalid_idempotency_key', 'invalid_store_credentials', 'order_id_taken', 'store_pending', 'store_rejected', 'store_suspended') },
      },
    },
    async (request, reply) => {
      const { payment, redirectUrl } = await createPayment(app.ctx, gatewayStoreOf(request), request.body, idempotencyKeyOf(request));
      // A client that asks for JSON only (a server, the SDK) gets the address to send its customer to instead of following it.
      if (wantsJsonOnly(request.headers.accept)) return reply.status(200).send({ status: 'success' as const, message: paymentMessages.created, redirectUrl, data: payment });
      return reply.redirect(redirectUrl, 303);
    },
  );

  app.post(
    '/payment/web-pay/complete/direct',
    {
      onRequest: requireStoreKey,
      schema: {
        tags: ['gateway'],
        summary: 'Server-to-server card payment: create the payment and charge the card in one call',
        description: 'A declined card answers 402 with the reason; the payment is kept with the failed attempt (its orderId is then taken).',
        security: storeSecurity,
        headers: idempotencyHeader,
        body: directPayBody,
        response: { 200: successEnvelope(paymentResult), ...refusals('already_paid', 'attempt_in_progress', 'card_brand_mismatch', 'card_brand_unsupported', 'card_declined', 'card_expired', 'card_expiry_invalid', 'card_number_invalid', 'card_processor_unavailable', 'fee_too_high', 'idempotency_key_reused', 'incorrect_cvc', 'insufficient_balance', 'insufficient_funds', 'invalid_idempotency_key', 'invalid_store_credentials', 'money_movement_locked', 'order_id_taken', 'payment_not_found', 'store_pending', 'store_rejected', 'store_suspended', 'too_many_declines', 'tpin_locked') },
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
      onRequest: storeOrOwner,
      schema: {
        tags: ['gateway'],
        summary: 'One payment, with its masked card and failed attempts (the store by its headers, or the owner by token)',
        security: [...storeSecurity, { accessToken: [] }],
        params: paymentIdParams,
        response: { 200: successEnvelope(paymentView), ...refusals('invalid_store_credentials', 'payment_not_found', 'store_pending', 'store_rejected', 'store_suspended') },
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
      // A suspended store's checkout answers 403 store_suspended: the stores module's answer, given
      // by the payment's one-call hold (payByCard), which reads the store with the payment.
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['gateway'],
        summary: "The checkout's card payment (public); answers the store's signed redirect address",
        security: [],
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: completeCardBody,
        response: { 200: completeAnswer, ...refusals('already_paid', 'attempt_in_progress', 'card_brand_mismatch', 'card_brand_unsupported', 'card_declined', 'card_expired', 'card_expiry_invalid', 'card_number_invalid', 'card_processor_unavailable', 'fee_too_high', 'idempotency_key_reused', 'incorrect_cvc', 'insufficient_balance', 'insufficient_funds', 'invalid_idempotency_key', 'money_movement_locked', 'payment_not_found', 'store_suspended', 'too_many_declines', 'tpin_locked') },
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
      // A suspended store's checkout answers 403 store_suspended: the stores module's answer, given
      // by the one statement that reads the payment with its store (payByWallet).
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['gateway'],
        summary: "The checkout's Kestrel wallet payment: the signed-in payer pays from an account they own, with its TPIN",
        headers: idempotencyHeader,
        params: paymentIdParams,
        body: kestrelPayBody,
        response: { 200: completeAnswer, ...refusals('step_up_required', 'step_up_invalid', 'step_up_rate_limited', 'account_not_found', 'already_paid', 'attempt_in_progress', 'fee_too_high', 'forbidden', 'idempotency_key_reused', 'insufficient_balance', 'invalid_idempotency_key', 'money_movement_locked', 'own_store', 'payment_not_found', 'store_suspended', 'tpin_incorrect', 'tpin_locked') },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payByWallet(app.ctx, callerId(request), request.params.paymentId, request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentMessages.success, redirectUrl: answer.redirectUrl, data: answer.data };
    },
  );

  // Paged (issue 20, item 11): keyset `limit` + `cursor`, and the store tab's search and filters.
  const listDescription =
    'Paged by keyset: `limit` payments (at most 100; without it the whole list, up to 500) and the `paymentId` of the last one shown as `cursor` for older ones; an empty page is the end. `q` finds an order ID, customer e-mail (any case) or payment ID; `status` is success, initiate or failed; `from`/`to` are UTC days (YYYY-MM-DD), both included.';
  const pageOf = (query: z.infer<typeof paymentListQuery>) => ({ limit: query.limit, after: query.cursor, search: query.q, status: query.status, from: query.from, to: query.to });

  app.post(
    '/payment/account',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Payments into one of your accounts, newest first',
        description: listDescription,
        body: paymentListBody,
        querystring: paymentListQuery,
        response: { 200: successEnvelope(z.array(paymentView)), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listAccountPayments(ctx, callerId(request), request.body.accountEmail, pageOf(request.query)))),
  );

  app.post(
    '/payment/account/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "The payments list's counters over every payment into one of your accounts",
        body: paymentListBody,
        response: { 200: successEnvelope(paymentCounters), ...refusals('account_not_found', 'store_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => paymentCountersOf(ctx, callerId(request), { accountEmail: request.body.accountEmail }))),
  );

  app.get(
    '/payment/store/:storeId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "One of your stores' payments, newest first",
        description: listDescription,
        params: storeIdParams,
        querystring: paymentListQuery,
        response: { 200: successEnvelope(z.array(paymentView)), ...refusals('store_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listStorePayments(ctx, callerId(request), request.params.storeId, pageOf(request.query)))),
  );

  app.get(
    '/payment/store/:storeId/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "The payments list's counters over every payment of one of your stores",
        params: storeIdParams,
        response: { 200: successEnvelope(paymentCounters), ...refusals('account_not_found', 'store_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => paymentCountersOf(ctx, callerId(request), { storeId: request.params.storeId }))),
  );

  app.get(
    '/payment/store/:storeId/chart',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "One of your stores' payments per UTC day over the last 30 days: volume, count, refused attempts, success rate",
        params: storeIdParams,
        response: { 200: successEnvelope(paymentChart), ...refusals('store_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => storePaymentChart(ctx, callerId(request), request.params.storeId))),
  );

  // Public: the hosted checkout shows it to a shopper with no Kestrel login; the urlId (128 random bits) is the capability.
  app.get(
    '/payment/:urlId',
    {
      // A suspended store's checkout answers 403 store_suspended (the check is the stores module's, not the payment services').
      preHandler: refuseSuspendedStoreCheckout,
      schema: {
        tags: ['gateway'],
        summary: 'The hosted checkout view of a payment (store name and logo, amount, status, cancel and return addresses)',
        security: [],
        params: urlIdParams,
        response: { 200: successEnvelope(checkoutView), ...refusals('payment_not_found', 'store_suspended') },
      },
    },
    async (request) => ok(await getCheckout(app.ctx, request.params.urlId)),
  );
};

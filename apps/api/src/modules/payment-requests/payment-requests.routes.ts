import {
  createPaymentRequestAnswer,
  createPaymentRequestBody,
  linkPaymentSourceQuery,
  linkPaymentView,
  paymentRequestAccountParams,
  paymentRequestCounters,
  paymentRequestListQuery,
  paymentRequestIdParams,
  paymentRequestMessages,
  paymentRequestPayAnswer,
  paymentRequestView,
  payPaymentRequestByCardBody,
  payPaymentRequestByKestrelBody,
  pRequestURLIdParams,
  publicPaymentRequestView,
  updatePaymentRequestLimitBody,
  updatePaymentRequestStatusBody,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onReadDb } from '../../db/read-routing.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import {
  createPaymentRequest,
  getPaymentRequest,
  getPublicPaymentRequest,
  listLinkPaymentsOfCaller,
  listPaymentRequests,
  listPaymentsOfLink,
  paymentRequestCountersOf,
  payPaymentRequestByCard,
  payPaymentRequestByWallet,
  updatePaymentRequestLimit,
  updatePaymentRequestStatus,
} from './payment-requests.service.ts';
import { refusals } from '../../http/refusals.ts';

const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
/** What a pay attempt can be refused with: bad input 400, a declined card 402, a disabled link 403, a link not found 404, no use left 409, an expired link 410, a lock 423. */

/** Payment-request links: the owner's routes, the public pay page's routes and the link payments. */
export const paymentRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/payment-request/create',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['payment requests'],
        summary: 'Create a payment-request link on one of your accounts (fixed or customer-choosen amount, optional use limit and expiry)',
        description: 'Needs the account TPIN. Send an Idempotency-Key header to make retries safe: a replay returns the first link.',
        headers: idempotencyHeader,
        body: createPaymentRequestBody,
        response: { 201: successEnvelope(createPaymentRequestAnswer), ...refusals('account_not_found', 'fee_too_high', 'idempotency_key_reused', 'invalid_idempotency_key', 'money_movement_locked', 'tpin_incorrect', 'tpin_locked') },
      },
    },
    async (request, reply) => {
      const { result, replayed } = await createPaymentRequest(app.ctx, callerId(request), request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(ok(result, paymentRequestMessages.created));
    },
  );

  app.get(
    '/payment-request/account/:accountNumber',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: "One of your accounts' payment-request links, newest first",
        description: 'Paged by keyset: `limit` links (at most 100; without it the whole list, up to 500), and the `_id` of the last one shown as `cursor` for the older ones. An empty page is the end.',
        params: paymentRequestAccountParams,
        querystring: paymentRequestListQuery,
        response: { 200: successEnvelope(z.array(paymentRequestView)), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listPaymentRequests(ctx, callerId(request), request.params.accountNumber, request.query))),
  );

  app.get(
    '/payment-request/account/:accountNumber/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: "The payment-request list's counters (Total Request, Active Request, Total Payments) over all of one of your accounts' links",
        params: paymentRequestAccountParams,
        response: { 200: successEnvelope(paymentRequestCounters), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => paymentRequestCountersOf(ctx, callerId(request), request.params.accountNumber))),
  );

  // Public: the pay page shows it to a visitor with no Kestrel login; the pRequestURLId (128 random bits) is the capability.
  app.get(
    '/payment-request/link/:pRequestURLId',
    {
      schema: {
        tags: ['payment requests'],
        summary: "A link as its public pay page shows it: purpose, amount or range, methods, and whether it is disabled, expired or used up",
        security: [],
        params: pRequestURLIdParams,
        response: { 200: successEnvelope(publicPaymentRequestView), ...refusals('payment_request_not_found') },
      },
    },
    async (request) => ok(await getPublicPaymentRequest(app.ctx, request.params.pRequestURLId)),
  );

  app.get(
    '/payment-request/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: 'One of your payment-request links, with its remaining uses, payment count and failed attempts',
        params: paymentRequestIdParams,
        response: { 200: successEnvelope(paymentRequestView), ...refusals('payment_request_not_found') },
      },
    },
    async (request) => ok(await getPaymentRequest(app.ctx, callerId(request), request.params.id)),
  );

  app.patch(
    '/payment-request/update/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: 'Turn one of your links on (active) or off (inactive)',
        params: paymentRequestIdParams,
        body: updatePaymentRequestStatusBody,
        response: { 200: successEnvelope(paymentRequestView), ...refusals('payment_request_not_found') },
      },
    },
    async (request) => ok(await updatePaymentRequestStatus(app.ctx, callerId(request), request.params.id, request.body.status, clientIp(request)), paymentRequestMessages.statusUpdated),
  );

  app.patch(
    '/payment-request/limit/update/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: "Set the uses remaining on one of your links ({useLimit}, turning the limit on), or turn the limit off ({isUseLimit: false})",
        params: paymentRequestIdParams,
        body: updatePaymentRequestLimitBody,
        response: { 200: successEnvelope(paymentRequestView), ...refusals('payment_request_not_found') },
      },
    },
    async (request) =>
      ok(await updatePaymentRequestLimit(app.ctx, callerId(request), request.params.id, request.body, clientIp(request)), paymentRequestMessages.limitUpdated),
  );

  // Public: the link's pay page takes cards from anonymous visitors.
  app.post(
    '/payment-request/card/complete-payment/:pRequestURLId',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['payment requests'],
        summary: 'Pay a link by card (public)',
        description:
          'A fixed link takes exactly its amount, a customer-choosen one an amount within its range. A declined card answers 402 and is kept in the link\'s paymentErrors (card masked). Send an Idempotency-Key header to make retries safe.',
        security: [],
        headers: idempotencyHeader,
        params: pRequestURLIdParams,
        body: payPaymentRequestByCardBody,
        response: { 200: paymentRequestPayAnswer, ...refusals('amount_mismatch', 'amount_out_of_range', 'card_brand_mismatch', 'card_brand_unsupported', 'card_declined', 'card_expired', 'card_expiry_invalid', 'card_number_invalid', 'card_processor_unavailable', 'fee_too_high', 'idempotency_key_reused', 'incorrect_cvc', 'insufficient_balance', 'insufficient_funds', 'invalid_idempotency_key', 'limit_exceeded', 'method_not_allowed', 'money_movement_locked', 'payment_request_disabled', 'payment_request_expired', 'payment_request_not_found', 'payment_request_owner_locked', 'too_many_declines', 'tpin_locked') },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payPaymentRequestByCard(app.ctx, request.params.pRequestURLId, request.body, idempotencyKeyOf(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentRequestMessages.paid, data: answer };
    },
  );

  app.post(
    '/payment-request/kestrel/complete-payment/:pRequestURLId',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['payment requests'],
        summary: 'Pay a link from one of your Kestrel wallets, with its TPIN',
        description: 'Send an Idempotency-Key header to make retries safe: a replay returns the first answer and pays once.',
        headers: idempotencyHeader,
        params: pRequestURLIdParams,
        body: payPaymentRequestByKestrelBody,
        response: { 200: paymentRequestPayAnswer, ...refusals('step_up_required', 'step_up_invalid', 'step_up_rate_limited', 'account_not_found', 'amount_mismatch', 'amount_out_of_range', 'fee_too_high', 'forbidden', 'idempotency_key_reused', 'insufficient_balance', 'invalid_idempotency_key', 'limit_exceeded', 'method_not_allowed', 'money_movement_locked', 'own_link', 'payment_request_disabled', 'payment_request_expired', 'payment_request_not_found', 'payment_request_owner_locked', 'tpin_incorrect', 'tpin_locked') },
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await payPaymentRequestByWallet(app.ctx, callerId(request), request.params.pRequestURLId, request.body, idempotencyKeyOf(request), clientIp(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { status: 'success' as const, message: paymentRequestMessages.paid, data: answer };
    },
  );

  app.get(
    '/payment/source',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: 'Payments made through your links (type=Link-payment), newest first; accountNumber narrows to one of your accounts',
        querystring: linkPaymentSourceQuery,
        response: { 200: successEnvelope(z.array(linkPaymentView)), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listLinkPaymentsOfCaller(ctx, callerId(request), request.query))),
  );

  app.get(
    '/payment/payment-request/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: 'The payments made through one of your links, newest first',
        params: paymentRequestIdParams,
        response: { 200: successEnvelope(z.array(linkPaymentView)), ...refusals('payment_request_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listPaymentsOfLink(ctx, callerId(request), request.params.id))),
  );
};

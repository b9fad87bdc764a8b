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
import { clientIp } from '../../http/client-ip.ts';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
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

const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
/** What a pay attempt can be refused with: bad input 400, a declined card 402, a disabled link 403, a link not found 404, no use left 409, an expired link 410, a lock 423. */
const payErrors = { 400: errorEnvelope, 402: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 410: errorEnvelope, 422: errorEnvelope, 423: errorEnvelope };

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
        response: { 201: successEnvelope(createPaymentRequestAnswer), 400: errorEnvelope, 404: errorEnvelope, 422: errorEnvelope, 423: errorEnvelope },
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
        response: { 200: successEnvelope(z.array(paymentRequestView)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listPaymentRequests(app.ctx, callerId(request), request.params.accountNumber, request.query)),
  );

  app.get(
    '/payment-request/account/:accountNumber/summary',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: "The payment-request list's counters (Total Request, Active Request, Total Payments) over all of one of your accounts' links",
        params: paymentRequestAccountParams,
        response: { 200: successEnvelope(paymentRequestCounters), 404: errorEnvelope },
      },
    },
    async (request) => ok(await paymentRequestCountersOf(app.ctx, callerId(request), request.params.accountNumber)),
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
        response: { 200: successEnvelope(publicPaymentRequestView), 404: errorEnvelope },
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
        response: { 200: successEnvelope(paymentRequestView), 404: errorEnvelope },
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
        response: { 200: successEnvelope(paymentRequestView), 400: errorEnvelope, 404: errorEnvelope },
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
        response: { 200: successEnvelope(paymentRequestView), 400: errorEnvelope, 404: errorEnvelope },
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
        response: { 200: paymentRequestPayAnswer, ...payErrors },
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
        response: { 200: paymentRequestPayAnswer, ...payErrors },
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
        response: { 200: successEnvelope(z.array(linkPaymentView)), 400: errorEnvelope, 404: errorEnvelope },
      },
    },
    async (request) => ok(await listLinkPaymentsOfCaller(app.ctx, callerId(request), request.query)),
  );

  app.get(
    '/payment/payment-request/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payment requests'],
        summary: 'The payments made through one of your links, newest first',
        params: paymentRequestIdParams,
        response: { 200: successEnvelope(z.array(linkPaymentView)), 404: errorEnvelope },
      },
    },
    async (request) => ok(await listPaymentsOfLink(app.ctx, callerId(request), request.params.id)),
  );
};

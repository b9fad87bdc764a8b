import {
  accountEmailParams,
  createStoreFields,
  rejectStoreBody,
  rotateStoreKeyBody,
  storeIdParams,
  storeListView,
  storeMessages,
  storePaymentMailsBody,
  storeReviewView,
  storeStatus,
  storeView,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireOperator, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { refuse } from '../../http/refusals.ts';
import { readMultipart } from '../../http/multipart.ts';
import {
  createStore,
  getStore,
  listStores,
  listStoresForReview,
  MAX_BUSINESS_DOCUMENTS,
  readStoreDocument,
  readStoreLogo,
  reviewStore,
  rotateStoreKey,
  setStorePaymentMails,
} from './stores.service.ts';
import { refusals } from '../../http/refusals.ts';

export const storesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/payment_gateway_store/create',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: {
        tags: ['stores'],
        summary: 'Create a payment gateway store (multipart); it starts Pending until an operator approves it',
        description:
          'multipart/form-data: accountKey (account number, user name or id of one of your accounts), userId (optional, must be you), tpin, storeName, ' +
          'storeURL, callbackURL (http or https), one image in storeLogo and 1 to 9 images in businessDocuments (JPEG, PNG, WebP or GIF by content, at most 5 MB each).',
        consumes: ['multipart/form-data'],
        response: { 201: successEnvelope(storeView), ...refusals('account_not_found', 'business_documents_required', 'callback_url_private', 'file_too_large', 'forbidden', 'image_polyglot', 'image_too_large', 'money_movement_locked', 'multipart_required', 'not_an_image', 'store_logo_one', 'store_logo_required', 'too_many_files', 'too_many_parts', 'tpin_incorrect', 'tpin_locked', 'unexpected_file') },
      },
    },
    async (request, reply) => {
      const { fields, files } = await readMultipart(request, {
        fileField: ['storeLogo', 'businessDocuments', 'businessDocuments[]'],
        maxFiles: MAX_BUSINESS_DOCUMENTS + 1,
        tooLarge: storeMessages.tooLarge,
        tooMany: storeMessages.tooMany,
      });
      const parsed = createStoreFields.safeParse(fields);
      if (!parsed.success) {
        const fieldErrors: Record<string, string> = {};
        for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? '_')] ??= issue.message;
        throw refuse('validation_failed', { message: Object.values(fieldErrors)[0] ?? 'Invalid request', fields: fieldErrors });
      }
      const store = await createStore(app.ctx, callerId(request), parsed.data, files, clientIp(request));
      return reply.status(201).send(ok(store, storeMessages.created));
    },
  );

  app.get(
    '/payment_gateway_store/account/:accountEmail',
    {
      onRequest: requireUser,
      schema: {
        tags: ['stores'],
        summary: "The stores of one of your accounts, newest first, with the account's payment counters",
        params: accountEmailParams,
        response: { 200: successEnvelope(storeListView), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await listStores(app.ctx, callerId(request), request.params.accountEmail)),
  );

  app.get(
    '/payment_gateway_store/:storeId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['stores'],
        summary: 'One of your stores (404 for anyone else)',
        params: storeIdParams,
        response: { 200: successEnvelope(storeView), ...refusals('store_not_found') },
      },
    },
    async (request) => ok(await getStore(app.ctx, callerId(request), request.params.storeId)),
  );

  // Public: the checkout page and the store list show logos to anyone.
  app.get(
    '/store-logos/:name',
    {
      schema: {
        tags: ['stores'],
        summary: 'A store logo (public)',
        security: [],
        params: z.object({ name: z.string().regex(/^[0-9a-f]{32}\.(png|jpg|webp|gif)$/) }),
        response: { 200: z.unknown().describe('The image bytes'), ...refusals('image_not_found') },
      },
    },
    async (request, reply) => {
      const image = await readStoreLogo(app.ctx, request.params.name);
      return reply.header('content-type', image.mimeType).header('cache-control', 'public, max-age=86400').send(image.bytes);
    },
  );

  app.get(
    '/operator/stores',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Stores by status, oldest first (operators only)',
        querystring: z.object({ status: storeStatus.default('Pending') }),
        response: { 200: successEnvelope(z.array(storeReviewView)), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listStoresForReview(app.ctx, request.query.status)),
  );

  app.get(
    '/operator/stores/:storeId/documents/:documentId',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "A store's business document image (operators only)",
        params: storeIdParams.extend({ documentId: z.string().max(100) }),
        response: { 200: z.unknown().describe('The image bytes'), ...refusals('document_not_found', 'not_found') },
      },
    },
    async (request, reply) => {
      const document = await readStoreDocument(app.ctx, request.params.storeId, request.params.documentId);
      return reply.header('content-type', document.mimeType).header('cache-control', 'private, max-age=300').send(document.bytes);
    },
  );

  // Every store decision takes a reason (kept in the audit log; a rejection's or suspension's is shown to the owner).
  const decisions = [
    { action: 'approve', summary: 'Approve a Pending store, with a reason (operators only; never their own store)', message: storeMessages.approved },
    { action: 'reject', summary: 'Reject a Pending store with a reason the owner sees (operators only; never their own store)', message: storeMessages.rejected },
    { action: 'suspend', summary: 'Suspend an Approved store with a reason the owner sees: its gateway calls and checkout answer 403 store_suspended (operators only)', message: storeMessages.suspended },
    { action: 'reinstate', summary: 'Reinstate a Suspended store, with a reason (operators only)', message: storeMessages.reinstated },
  ] as const;
  for (const decision of decisions) {
    app.post(
      `/operator/stores/:storeId/${decision.action}`,
      {
        onRequest: requireOperator,
        schema: {
          tags: ['operator'],
          summary: decision.summary,
          params: storeIdParams,
          body: rejectStoreBody,
          response: { 200: successEnvelope(storeView), ...refusals('not_found', 'own_record', 'store_not_found', 'store_not_pending', 'store_status_conflict') },
        },
      },
      async (request) => ok(await reviewStore(app.ctx, callerId(request), request.params.storeId, decision.action, request.body.reason, clientIp(request)), decision.message),
    );
  }

  app.post(
    '/payment_gateway_store/:storeId/rotate-key',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: {
        tags: ['stores'],
        summary: "Replace one of your stores' storeKey (TPIN required): the new key works at once, the previous one for 24 more hours",
        params: storeIdParams,
        body: rotateStoreKeyBody,
        response: { 200: successEnvelope(storeView), ...refusals('account_not_found', 'money_movement_locked', 'store_not_found', 'tpin_incorrect', 'tpin_locked') },
      },
    },
    async (request) => ok(await rotateStoreKey(app.ctx, callerId(request), request.params.storeId, request.body.tpin, clientIp(request)), storeMessages.keyRotated),
  );

  app.put(
    '/payment_gateway_store/:storeId/payment-mails',
    {
      onRequest: requireUser,
      schema: {
        tags: ['stores'],
        summary: 'Switch the "You got paid" notices of one of your stores on or off',
        params: storeIdParams,
        body: storePaymentMailsBody,
        response: { 200: successEnvelope(storeView), ...refusals('store_not_found') },
      },
    },
    async (request) => {
      const store = await setStorePaymentMails(app.ctx, callerId(request), request.params.storeId, request.body.notifyOnPayment, clientIp(request));
      return ok(store, store.notifyOnPayment ? storeMessages.paymentMailsOn : storeMessages.paymentMailsOff);
    },
  );
};

import {
  accountKeyParams,
  accountView,
  createAccountBody,
  createdAccount,
  identityImageList,
  identityImageParams,
  messages,
  uploadIdentityImageFields,
} from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerId, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { refuse } from '../../http/refusals.ts';
import { readMultipart } from '../../http/multipart.ts';
import { createAccount, getAccount, MAX_IDENTITY_IMAGES, readIdentityImage, uploadIdentityImages } from './accounts.service.ts';
import { refusals } from '../../http/refusals.ts';

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/account/create',
    {
      onRequest: requireUser,
      // Per address; generous enough for an office behind one NAT (sign-up is limited separately).
      config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
      schema: {
        tags: ['accounts'],
        summary: 'Open a personal or business account for the signed-in, e-mail-verified user',
        body: createAccountBody,
        response: { 201: successEnvelope(createdAccount), ...refusals('account_email_taken', 'account_phone_taken', 'email_not_verified', 'identity_number_taken', 'invalid_request', 'not_account_owner', 'operator_cannot_hold_account', 'user_name_taken') },
      },
    },
    async (request, reply) => {
      const created = await createAccount(app.ctx, callerId(request), request.body, clientIp(request));
      return reply.status(201).send(ok(created, messages.account.created));
    },
  );

  app.patch(
    '/account/upload-image',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 120, timeWindow: '1 hour' } },
      schema: {
        tags: ['accounts'],
        summary: 'Upload identity document images (multipart: accountId, accountNumber, identityImage files)',
        description:
          'multipart/form-data with text fields accountId and/or accountNumber and 1 to 10 files in the field identityImage. ' +
          'Files must be JPEG, PNG, WebP or GIF by content (not by name), at most 5 MB each. Owner only.',
        consumes: ['multipart/form-data'],
        response: { 200: successEnvelope(identityImageList), ...refusals('account_not_found', 'file_too_large', 'identity_image_required', 'image_polyglot', 'image_too_large', 'invalid_request', 'multipart_required', 'not_an_image', 'too_many_files', 'too_many_parts', 'unexpected_file') },
      },
    },
    async (request) => {
      const { fields, files } = await readMultipart(request, {
        fileField: 'identityImage',
        maxFiles: MAX_IDENTITY_IMAGES,
        tooLarge: messages.account.identityImageTooLarge,
        tooMany: messages.account.identityImageTooMany,
      });
      const parsed = uploadIdentityImageFields.safeParse(fields);
      if (!parsed.success) throw refuse('invalid_request', { message: messages.account.uploadAccountRequired, fields: { accountId: messages.account.uploadAccountRequired } });
      return ok(await uploadIdentityImages(app.ctx, callerId(request), parsed.data, files, clientIp(request)), messages.account.identityUploaded);
    },
  );

  app.get(
    '/account/:accountId/identity-images/:imageId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "An identity document image; only the account's owner and operators may see it",
        params: identityImageParams,
        response: { 200: z.unknown().describe('The image bytes (image/jpeg, image/png, image/webp or image/gif)'), ...refusals('image_not_found') },
      },
    },
    async (request, reply) => {
      const image = await readIdentityImage(app.ctx, callerId(request), request.params.accountId, request.params.imageId);
      return reply
        .header('content-type', image.mimeType)
        .header('cache-control', 'no-store')
        .header('content-disposition', 'inline')
        .send(image.bytes);
    },
  );

  // Static paths under /account (search, transfer_balance, create) win over this one in the router.
  app.get(
    '/account/:key',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "One of the caller's accounts by id, account number or user name",
        params: accountKeyParams,
        response: { 200: successEnvelope(accountView), ...refusals('account_not_found') },
      },
    },
    async (request) => ok(await getAccount(app.ctx, callerId(request), request.params.key)),
  );
};

import { ACCOUNT_TYPES, createAccountBody, CURRENCIES, IDENTITY_TYPES, messages, NOTIFICATION_PREFERENCES, uploadIdentityImageFields } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, callerId } from '../../http/authenticate.ts';
import { clientIp } from '../../http/client-ip.ts';
import { errorEnvelope, ok, successEnvelope } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { readMultipart } from '../../http/multipart.ts';
import { accountSummary, createAccount, getAccount, MAX_IDENTITY_IMAGES, readIdentityImage, uploadIdentityImages } from './accounts.service.ts';

const fee = z.object({ fixed: z.number().describe('US$'), percentage: z.number() });
const identityImage = z.object({
  _id: z.string(),
  url: z.string().describe('Path of GET /v1/account/{accountId}/identity-images/{imageId}; send the Authorization header'),
  createdAt: z.string(),
});

const accountView = z.object({
  _id: z.string(),
  accountNumber: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  accountHolderName: z.string(),
  businessName: z.string().nullable(),
  companyName: z.string().nullable(),
  userName: z.string(),
  accountEmail: z.string(),
  accountPhone: z.string(),
  createdAt: z.string(),
  balance: z.array(z.object({ currency: z.string().describe(`One of: ${CURRENCIES.join(', ')}`), amount: z.number().describe('Major units, e.g. 12.5') })),
  identity: z.object({ type: z.enum(IDENTITY_TYPES), number: z.string(), isVerified: z.boolean() }),
  identityImages: z.array(identityImage),
  users: z.array(z.object({ userId: z.string() })),
  dateOfBirth: z.string().describe('YYYY-MM-DD'),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zipCode: z.string(), country: z.string() }),
  notificationPreference: z.enum(NOTIFICATION_PREFERENCES),
  occupation: z.string(),
  annualIncome: z.string(),
  gatewayFee: fee,
  paymentRequestFee: fee,
});

const createdAccount = z.object({ _id: z.string(), accountNumber: z.string(), accountEmail: z.string(), userName: z.string() });
const summary = z.object({
  totalPayments: z.number().int(),
  successPayments: z.number().int(),
  totalWithdraw: z.number().int(),
  totalTransactions: z.number().int(),
});
const accountKey = z.object({ key: z.string().min(1).max(100).describe('Account id, account number or user name') });

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/account/create',
    {
      preHandler: authenticate,
      // Per address; generous enough for an office behind one NAT (sign-up is limited separately).
      config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
      schema: {
        tags: ['accounts'],
        summary: 'Open a personal or business account for the signed-in, e-mail-verified user',
        body: createAccountBody,
        response: { 201: successEnvelope(createdAccount), 400: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope },
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
      preHandler: authenticate,
      config: { rateLimit: { max: 120, timeWindow: '1 hour' } },
      schema: {
        tags: ['accounts'],
        summary: 'Upload identity document images (multipart: accountId, accountNumber, identityImage files)',
        description:
          'multipart/form-data with text fields accountId and/or accountNumber and 1 to 10 files in the field identityImage. ' +
          'Files must be JPEG, PNG, WebP or GIF by content (not by name), at most 5 MB each. Owner only.',
        consumes: ['multipart/form-data'],
        response: { 200: successEnvelope(z.array(identityImage)), 400: errorEnvelope, 404: errorEnvelope, 413: errorEnvelope },
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
      if (!parsed.success) throw badRequest(messages.account.uploadAccountRequired, { accountId: messages.account.uploadAccountRequired });
      return ok(await uploadIdentityImages(app.ctx, callerId(request), parsed.data, files, clientIp(request)), messages.account.identityUploaded);
    },
  );

  app.get(
    '/account/:accountId/identity-images/:imageId',
    {
      preHandler: authenticate,
      schema: {
        tags: ['accounts'],
        summary: "An identity document image; only the account's owner and operators may see it",
        params: z.object({ accountId: z.string().max(100), imageId: z.string().max(100) }),
        response: { 200: z.unknown().describe('The image bytes (image/jpeg, image/png, image/webp or image/gif)'), 404: errorEnvelope },
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

  app.get(
    '/account/:key/summary',
    {
      preHandler: authenticate,
      schema: {
        tags: ['accounts'],
        summary: "The dashboard's counters for one of the caller's accounts",
        params: accountKey,
        response: { 200: successEnvelope(summary), 404: errorEnvelope },
      },
    },
    async (request) => ok(await accountSummary(app.ctx, callerId(request), request.params.key)),
  );

  // Static paths under /account (search, transfer_balance, create) win over this one in the router.
  app.get(
    '/account/:key',
    {
      preHandler: authenticate,
      schema: {
        tags: ['accounts'],
        summary: "One of the caller's accounts by id, account number or user name",
        params: accountKey,
        response: { 200: successEnvelope(accountView), 404: errorEnvelope },
      },
    },
    async (request) => ok(await getAccount(app.ctx, callerId(request), request.params.key)),
  );
};

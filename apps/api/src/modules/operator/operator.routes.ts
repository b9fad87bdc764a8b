import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, callerId } from '../../http/authenticate.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { listPendingIdentityReviews, verifyAccountIdentity } from './identity-review.service.ts';

const review = z.object({
  accountId: z.string(),
  accountNumber: z.string(),
  accountHolderName: z.string(),
  identity: z.object({ type: z.string(), number: z.string() }),
  documents: z.array(z.object({ _id: z.string(), url: z.string(), createdAt: z.date() })),
});

/** Operator-only routes: identity review. Everyone else is told the route does not exist. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/operator/identity-reviews',
    {
      preHandler: authenticate,
      schema: {
        tags: ['operator'],
        summary: 'Accounts whose identity documents wait for review (operators only)',
        response: { 200: successEnvelope(z.array(review)) },
      },
    },
    async (request) => ok(await listPendingIdentityReviews(app.ctx, callerId(request))),
  );

  app.post(
    '/operator/accounts/:accountId/identity/verify',
    {
      preHandler: authenticate,
      schema: {
        tags: ['operator'],
        summary: "Mark an account's identity as verified after reviewing its documents (operators only)",
        params: z.object({ accountId: z.uuid() }),
        response: { 200: successEnvelope(z.object({ accountId: z.string(), isVerified: z.literal(true) })) },
      },
    },
    async (request) => {
      await verifyAccountIdentity(app.ctx, callerId(request), request.params.accountId, clientIp(request));
      return ok({ accountId: request.params.accountId, isVerified: true as const }, 'Identity verified');
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { identityReviewList, verifyIdentityParams, verifyIdentityResult } from '@kestrel/shared';
import { callerId, requireOperator } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { listPendingIdentityReviews, verifyAccountIdentity } from './identity-review.service.ts';

/** Operator-only routes: identity review. Everyone else is told the route does not exist. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/operator/identity-reviews',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Accounts whose identity documents wait for review (operators only)',
        response: { 200: successEnvelope(identityReviewList) },
      },
    },
    async () => ok(await listPendingIdentityReviews(app.ctx)),
  );

  app.post(
    '/operator/accounts/:accountId/identity/verify',
    {
      preHandler: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Mark an account's identity as verified after reviewing its documents (operators only)",
        params: verifyIdentityParams,
        response: { 200: successEnvelope(verifyIdentityResult) },
      },
    },
    async (request) => {
      await verifyAccountIdentity(app.ctx, callerId(request), request.params.accountId, clientIp(request));
      return ok({ accountId: request.params.accountId, isVerified: true as const }, 'Identity verified');
    },
  );
};

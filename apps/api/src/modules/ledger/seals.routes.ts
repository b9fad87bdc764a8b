import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerProof, ledgerProofParams, ledgerSealsQuery, publishedSeals, SEALS_PAGE_LIMIT, successEnvelope } from '@kestrel/shared';
import { ok } from '../../http/envelope.ts';
import { refuse } from '../../http/refusals.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { listSeals, proofForCaller, sealKey } from './seals.ts';
import { refusals } from '../../http/refusals.ts';

export const ledgerSealsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ledger/seals',
    {
      schema: {
        tags: ['ledger'],
        summary: "The ledger's published seals and Kestrel's seal key",
        description:
          'Each seal is a signed Merkle root over a run of ledger transactions, chained to the seal before it. With these and a transaction\'s proof (GET /v1/ledger/proof/{transactionId}), anyone can check the transaction was never changed: `npm run ledger:prove`, or `verifyLedgerProof` from @kestrel/shared.',
        security: [],
        querystring: ledgerSealsQuery,
        response: { 200: successEnvelope(publishedSeals) },
      },
    },
    async (request) =>
      ok({
        algorithm: 'Ed25519' as const,
        publicKey: sealKey(app.ctx.config.secretKey).publicKeyHex,
        seals: await listSeals(app.ctx.db, { after: request.query.after, limit: request.query.limit ?? SEALS_PAGE_LIMIT }),
      }),
  );

  app.get(
    '/ledger/proof/:transactionId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'The inclusion proof of one of your transactions',
        description: 'Only for a transaction that moved money of one of your accounts (404 otherwise). 409 until the sealer has sealed it (about a minute after it was made).',
        params: ledgerProofParams,
        response: { 200: successEnvelope(ledgerProof), ...refusals('not_found', 'not_sealed_yet') },
      },
    },
    async (request) => {
      const proof = await proofForCaller(app.ctx.db, { userId: callerId(request) }, request.params.transactionId);
      if (!proof) throw refuse('not_found');
      if (proof === 'not_sealed') throw refuse('not_sealed_yet');
      return ok(proof);
    },
  );
};

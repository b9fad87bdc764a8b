import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  mismatchIdParams,
  reasonBody,
  reconciliationMessages as rm,
  reconciliationMismatchesQuery,
  reconciliationMismatchList,
  reconciliationMismatchView,
  reconciliationRunList,
  reconciliationRunView,
  runReconciliationBody,
} from '@kestrel/shared';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { callerId, requireOperator } from '../../http/guards.ts';
import {
  listReconciliationMismatches,
  listReconciliationRuns,
  recordMismatch,
  resolveMismatchWithReason,
  runReconciliation,
  voidMismatch,
} from './reconciliation.service.ts';
import { refusals } from '../../http/refusals.ts';

/** The operator console's reconciliation of the card processor's records with the ledger (operators only). */
export const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/operator/reconciliation/runs',
    {
      onRequest: requireOperator,
      schema: { tags: ['operator'], summary: 'Reconciliation runs, newest day first (operators only)', response: { 200: successEnvelope(reconciliationRunList), ...refusals('not_found') } },
    },
    async () => ok(await listReconciliationRuns(app.ctx)),
  );

  app.post(
    '/operator/reconciliation/runs',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Reconcile a UTC day now: the card processor's records against the ledger (operators only)",
        body: runReconciliationBody,
        response: { 200: successEnvelope(reconciliationRunView), ...refusals('card_processor_unavailable', 'day_in_future', 'not_found') },
      },
    },
    async (request) => {
      const run = await runReconciliation(app.ctx, callerId(request), request.body.day);
      return ok(run, rm.ran(run.mismatches));
    },
  );

  app.get(
    '/operator/reconciliation/mismatches',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['operator'],
        summary: 'Differences between the processor and the ledger: open ones by default (operators only)',
        querystring: reconciliationMismatchesQuery,
        response: { 200: successEnvelope(reconciliationMismatchList), ...refusals('not_found') },
      },
    },
    async (request) => ok(await listReconciliationMismatches(app.ctx, request.query)),
  );

  const actions = [
    ['void', voidMismatch, rm.voided, 'Void, at the processor, a charge the books do not have, with a reason (operators only)'],
    ['record', recordMismatch, rm.recorded, 'Record in the books a charge (or settle a card refund) the processor made, with a reason (operators only)'],
    ['resolve', resolveMismatchWithReason, rm.resolved, 'Mark a difference resolved, with a reason (operators only)'],
  ] as const;
  for (const [action, act, message, summary] of actions) {
    app.post(
      `/operator/reconciliation/mismatches/:mismatchId/${action}`,
      {
        onRequest: requireOperator,
        schema: { tags: ['operator'], summary, params: mismatchIdParams, body: reasonBody, response: { 200: successEnvelope(reconciliationMismatchView), ...refusals('not_found', 'own_record', 'mismatch_not_found', 'mismatch_resolved', 'mismatch_in_progress', 'already_recorded', 'void_not_possible', 'record_not_possible', 'charge_not_standing', 'charge_not_payable', 'card_processor_unavailable') } },
      },
      async (request) => ok(await act(app.ctx, callerId(request), request.params.mismatchId, request.body.reason, clientIp(request)), message),
    );
  }
};

import { z } from 'zod';
import { withExample } from '../contract-examples.ts';
import { majorUnits } from './common.ts';

/*
 * Reconciliation of the card processor's records with the ledger (issue 26): a run per
 * processor and UTC day, and the differences it found, on the operator console
 * (/v1/operator/reconciliation/..., operators only). Amounts go out in major units.
 */

export const reconciliationMessages = {
  dayRequired: 'Day is required',
  dayInvalid: 'Enter a day as YYYY-MM-DD',
  dayInFuture: 'That day has not begun yet (days are UTC)',
  ran: (differences: number) => (differences === 0 ? 'Reconciled: no differences' : `Reconciled: ${differences} difference${differences === 1 ? '' : 's'} found`),
  mismatchNotFound: 'Difference not found',
  notOpen: 'This difference is already resolved',
  inProgress: 'Another operator is acting on this difference; try again in a moment',
  voidNotPossible: 'Only a charge that the books do not have can be voided',
  recordNotPossible: 'Only a charge the books do not have, or a card refund the books still show as processing, can be recorded',
  chargeNotStanding: 'The processor no longer shows this charge as approved (voided or unknown); nothing was recorded. Reconcile the day again.',
  alreadyRecorded: 'The books have this charge now; nothing changed. Reconcile the day again to clear the difference.',
  notPayable: (why: string) => `This payment can no longer take the charge (${why}); nothing was recorded. Void the charge instead.`,
  amountNotPayable: 'The charge does not match what the payment asks for (amount or currency); nothing was recorded. Void the charge instead.',
  refundNotSettled: 'The processor did not confirm the refund; nothing changed. Try again.',
  processorUnavailable: 'The card processor did not answer; nothing changed. Try again.',
  voided: 'Charge voided at the processor',
  recorded: 'Recorded in the books',
  resolved: 'Marked resolved',
} as const;

export const mismatchKind = z
  .enum(['charge_not_recorded', 'recorded_not_charged', 'charge_amount_differs', 'refund_not_recorded', 'recorded_not_refunded', 'refund_amount_differs'])
  .describe(
    'charge_not_recorded: the processor charged a card, the ledger has no payment for it; recorded_not_charged: the ledger has a card payment the processor has no charge for (or voided); ' +
      'charge_amount_differs: both have it, with different amounts or currencies; the refund_ kinds are the same for card refunds',
  );
export type MismatchKind = z.infer<typeof mismatchKind>;

/** How the console names each kind. */
export const mismatchKindLabels: Record<MismatchKind, string> = {
  charge_not_recorded: 'Charged but not recorded',
  recorded_not_charged: 'Recorded but not charged',
  charge_amount_differs: 'Charge amounts differ',
  refund_not_recorded: 'Refunded but not recorded',
  recorded_not_refunded: 'Recorded but not refunded',
  refund_amount_differs: 'Refund amounts differ',
};

/** What each kind means and what an operator does about it (the console shows it on each difference). */
export const mismatchKindExplanations: Record<MismatchKind, string> = {
  charge_not_recorded:
    'The processor charged the card, but the books have no payment for it (its answer was lost, or the recording failed). Record it on its payment if that still takes it, or void it at the processor.',
  recorded_not_charged:
    'The books have a card payment the processor has no charge for, or voided: the payee was credited money that was never collected. Settle it with the processor, then mark it resolved.',
  charge_amount_differs: 'Both have the charge, with different amounts or currencies. Find out which is right with the processor, then mark it resolved.',
  refund_not_recorded:
    'The processor refunded the card, but the books do not show the refund done. A refund the books still have as processing is settled by Record; otherwise settle it by hand and mark it resolved.',
  recorded_not_refunded: 'The books show a card refund the processor never made: the payer has not had the money back. Ask the processor, then mark it resolved.',
  refund_amount_differs: 'Both have the refund, with different amounts or currencies. Find out which is right with the processor, then mark it resolved.',
};

export const mismatchAction = z.enum(['void', 'record', 'resolve']);
export type MismatchAction = z.infer<typeof mismatchAction>;

/** A UTC day, YYYY-MM-DD. */
export const reconciliationDay = withExample(
  z
    .string({ error: reconciliationMessages.dayRequired })
    .regex(/^\d{4}-\d{2}-\d{2}$/, reconciliationMessages.dayInvalid)
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day, reconciliationMessages.dayInvalid)
    .describe('A UTC day, YYYY-MM-DD'),
  '2026-05-01',
);

/** POST /v1/operator/reconciliation/runs: reconcile one UTC day now (today: so far). */
export const runReconciliationBody = z.object({ day: reconciliationDay });
export type RunReconciliationInput = z.input<typeof runReconciliationBody>;

export const reconciliationRunView = z.object({
  _id: z.string(),
  processor: z.string().describe("The card processor's name (Kestrel's merchant account at it)"),
  day: z.string(),
  trigger: z.enum(['job', 'cli', 'operator']).describe('job: the daily job after the day ended; cli: npm run reconcile; operator: the console'),
  ranAt: z.string(),
  processorRecords: z.number().int().describe("The processor's charges and refunds of the day"),
  ledgerRecords: z.number().int().describe("The ledger's card payments and card refunds of the day"),
  mismatches: z.number().int().describe('Differences this run found'),
  open: z.number().int().describe('Differences of the day still open'),
});
export type ReconciliationRunView = z.infer<typeof reconciliationRunView>;
export const reconciliationRunList = z.array(reconciliationRunView);

/** GET /v1/operator/reconciliation/mismatches?status=&day= */
export const reconciliationMismatchesQuery = z.object({
  status: z.enum(['open', 'resolved', 'all']).default('open'),
  day: reconciliationDay.optional(),
});
export type ReconciliationMismatchesQueryInput = z.input<typeof reconciliationMismatchesQuery>;

export const reconciliationMismatchView = z.object({
  _id: z.string(),
  processor: z.string(),
  day: z.string(),
  kind: mismatchKind,
  reference: z.string().describe("The processor's reference of the charge or refund (a refund the processor does not know: Kestrel's refund id)"),
  target: z.enum(['payment', 'link']).nullable().describe('What was paid: a gateway payment or a payment link'),
  recordId: z.string().nullable().describe("The gateway payment's id, or the payment link's"),
  accountNumber: z.string().nullable().describe('The account that was (or would have been) paid'),
  refundId: z.string().nullable(),
  currency: z.string(),
  processorAmount: majorUnits.nullable().describe("What the processor's record says"),
  ledgerAmount: majorUnits.nullable().describe('What the ledger says'),
  transactionId: z.string().nullable().describe("The ledger's transaction id, when the ledger has the movement"),
  card: z.string().nullable().describe('The card as the processor keeps it, e.g. "visa ending 4242"'),
  processorStatus: z.string().nullable().describe("The processor's status: approved, voided, refunded, or null when it has no record"),
  ledgerStatus: z.string().nullable().describe("The books' status: paid, or a refund's processing / succeeded / failed, or null when they have no record"),
  processorAt: z.string().nullable(),
  ledgerAt: z.string().nullable(),
  status: z.enum(['open', 'resolved']),
  resolution: z.enum(['voided', 'recorded', 'resolved', 'cleared']).nullable().describe('cleared: a later run of the day no longer found it'),
  resolutionReason: z.string().nullable(),
  resolvedBy: z.object({ userId: z.string(), email: z.string() }).nullable(),
  resolvedAt: z.string().nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  actions: z.array(mismatchAction).describe('What an operator may do with it now'),
});
export type ReconciliationMismatchView = z.infer<typeof reconciliationMismatchView>;
export const reconciliationMismatchList = z.array(reconciliationMismatchView);

/** POST /v1/operator/reconciliation/mismatches/{mismatchId}/void · /record · /resolve, each with a reason (`reasonBody`, audited). */
export const mismatchIdParams = z.object({ mismatchId: z.uuid() });

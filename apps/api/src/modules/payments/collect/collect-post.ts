import type { Cents } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../../db/database.ts';
import { tpinOutcomeOf, type TpinCheckArgs, type TpinOutcome } from '../../accounts/tpin.ts';
import { isStepUpKind, type StepUpArgs, type StepUpOutcome } from '../../ledger/step-up-kinds.ts';

/**
 * The collect pipeline's database step: one call of the `collect_post` function
 * (db/functions/collect_post.sql), sent as a named prepared statement like `ledger_transfer`.
 * It checks the payer's locks, the idempotency record and the record being paid under their
 * row locks, and writes the ledger transaction, its postings, the record, the callback, the
 * activities, the audit entry, both balances and the idempotency record, or answers why not.
 */
export interface CollectPostInput {
  target: 'payment' | 'link';
  recordId: string;
  /** A link card attempt's held use; null for a wallet payment (it takes its use in the call). */
  holdId: string | null;
  /** The paying wallet; null for a card (the money comes from card clearing). */
  payerAccountId: string | null;
  payeeAccountId: string;
  currency: string;
  amountCents: Cents;
  feeCents: Cents;
  transactionId: string;
  ledgerKind: string;
  transactionFor: string;
  createdBy: string | null;
  metadata: Record<string, unknown>;
  /** The record's columns (snake_case): a payment's source, or a link payment's row. */
  record: Record<string, unknown>;
  activities: { account_id: string; name: string; comment: string }[];
  audit: { actor_user_id: string | null; action: string; subject_type: string; subject_id: string; details: Record<string, unknown> };
  callback: { store_id: string; target_url: string; body: string } | null;
  idempotencyCaller: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  answer: unknown;
  /** A wallet payer's step-up argument (auth/step-up.ts); null for a card. */
  stepUp: StepUpArgs | null;
  /** A wallet payer's TPIN, to be checked in the call (accounts/tpin.ts); null when it was checked before, and for a card. */
  tpin: TpinCheckArgs | null;
}

export type CollectPostKind =
  | 'ok'
  | 'replay'
  | 'idempotency_mismatch'
  | 'tpin_locked'
  | 'money_movement_locked'
  | 'already_paid'
  | 'attempt_in_progress'
  | 'limit_exceeded'
  | 'link_unavailable'
  | 'owner_locked'
  | 'insufficient_funds';

export type CollectPostOutcome =
  | { kind: 'replay'; bodyText: string }
  | { kind: 'tpin_locked'; lockedUntil: Date }
  | { kind: Exclude<CollectPostKind, 'replay' | 'tpin_locked'> }
  | StepUpOutcome
  /** The TPIN given in `tpin` was not accepted (its count committed with this answer): tpin_check's outcome. */
  | { kind: 'tpin_check'; tpin: TpinOutcome };

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const COLLECT_POST = namedStatement(
  'collect_post_v3',
  'SELECT kind, body::text AS body_text, locked_until FROM collect_post($1, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6, $7::bigint, $8::bigint, $9, $10, $11, $12::uuid, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, $17::jsonb, $18, $19, $20, $21::jsonb, $22::jsonb, $23::jsonb)',
);

const KINDS = new Set<string>(['ok', 'idempotency_mismatch', 'money_movement_locked', 'already_paid', 'attempt_in_progress', 'limit_exceeded', 'link_unavailable', 'owner_locked', 'insufficient_funds']);

export async function collectPost(db: Db, input: CollectPostInput): Promise<CollectPostOutcome> {
  const { rows } = await db.executeQuery<{ kind: string; bodyText: string | null; lockedUntil: Date | null }>(
    CompiledQuery.raw(COLLECT_POST, [
      input.target,
      input.recordId,
      input.holdId,
      input.payerAccountId,
      input.payeeAccountId,
      input.currency,
      input.amountCents,
      input.feeCents,
      input.transactionId,
      input.ledgerKind,
      input.transactionFor,
      input.createdBy,
      JSON.stringify(input.metadata),
      JSON.stringify(input.record),
      JSON.stringify(input.activities),
      JSON.stringify(input.audit),
      input.callback === null ? null : JSON.stringify(input.callback),
      input.idempotencyCaller,
      input.idempotencyKey ?? null,
      input.requestHash,
      JSON.stringify(input.answer),
      input.stepUp === null ? null : JSON.stringify(input.stepUp),
      input.tpin === null ? null : JSON.stringify(input.tpin),
    ]),
  );
  const row = rows[0];
  if (!row) throw new Error('collect_post answered no row');
  if (row.kind === 'replay') {
    if (row.bodyText === null) throw new Error('collect_post answered a replay without its answer');
    return { kind: 'replay', bodyText: row.bodyText };
  }
  if (row.kind === 'tpin_locked') {
    if (!row.lockedUntil) throw new Error('collect_post answered tpin_locked without a time');
    return { kind: 'tpin_locked', lockedUntil: row.lockedUntil };
  }
  if (row.kind === 'tpin_check') {
    if (row.bodyText === null) throw new Error('collect_post answered tpin_check without its outcome');
    const checked = JSON.parse(row.bodyText) as { kind: string; remaining: number | null; userName: string | null };
    return { kind: 'tpin_check', tpin: tpinOutcomeOf({ ...checked, lockedUntil: row.lockedUntil }) };
  }
  if (isStepUpKind(row.kind)) {
    const remaining = row.bodyText === null ? null : ((JSON.parse(row.bodyText) as { remaining?: number | null }).remaining ?? null);
    return { kind: 'step_up', refusal: row.kind, remaining };
  }
  if (!KINDS.has(row.kind)) throw new Error(`collect_post answered an unknown kind ${row.kind}`);
  return { kind: row.kind as Exclude<CollectPostKind, 'replay' | 'tpin_locked'> };
}

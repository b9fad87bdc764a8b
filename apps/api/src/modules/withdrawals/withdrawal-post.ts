import type { Cents } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { isStepUpKind, type StepUpArgs, type StepUpOutcome } from '../ledger/step-up-kinds.ts';

/*
 * The withdrawals' database steps, each one call of a function in db/functions, sent as a
 * named prepared statement like `ledger_transfer`: `withdrawal_request` (the hold, after the
 * TPIN check) and `withdrawal_move` (an operator's status move or the owner's cancel).
 */

interface Idempotency {
  caller: string;
  key: string | undefined;
  requestHash: string;
}

interface AuditInput {
  actor_user_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  ip: string | null;
  details: Record<string, unknown>;
}

/** A new withdrawal's columns (snake_case), its id made by the server. */
export interface NewWithdrawalColumns {
  id: string;
  account_id: string;
  requested_by: string;
  currency: string;
  amount_cents: Cents;
  country: string;
  bank_name: string;
  branch_name: string | null;
  account_type: string | null;
  bank_account_number: string;
  routing_number: string;
  account_holder_name: string;
}

export interface WithdrawalRequestInput {
  withdrawal: NewWithdrawalColumns;
  transactionId: string;
  metadata: Record<string, unknown>;
  activity: { name: string; comment: string };
  audit: AuditInput;
  idempotency: Idempotency;
  /** The answer without its times (the row's are added). */
  answer: Record<string, unknown>;
  /** The step-up argument (auth/step-up.ts): checked in the call above the account's threshold. */
  stepUp: StepUpArgs;
}

export type WithdrawalRequestOutcome =
  | { kind: 'ok' | 'replay'; bodyText: string }
  | { kind: 'tpin_locked'; lockedUntil: Date }
  | { kind: 'idempotency_mismatch' | 'account_missing' | 'money_movement_locked' | 'insufficient_funds' }
  | StepUpOutcome;

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const WITHDRAWAL_REQUEST = namedStatement(
  'withdrawal_request_v2',
  'SELECT kind, body::text AS body_text, locked_until FROM withdrawal_request($1::jsonb, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6, $7, $8, $9::jsonb, $10::jsonb)',
);

export async function withdrawalRequest(db: Db, input: WithdrawalRequestInput): Promise<WithdrawalRequestOutcome> {
  const { rows } = await db.executeQuery<{ kind: string; bodyText: string | null; lockedUntil: Date | null }>(
    CompiledQuery.raw(WITHDRAWAL_REQUEST, [
      JSON.stringify(input.withdrawal),
      input.transactionId,
      JSON.stringify(input.metadata),
      JSON.stringify(input.activity),
      JSON.stringify(input.audit),
      input.idempotency.caller,
      input.idempotency.key ?? null,
      input.idempotency.requestHash,
      JSON.stringify(input.answer),
      JSON.stringify(input.stepUp),
    ]),
  );
  const row = rows[0];
  if (!row) throw new Error('withdrawal_request answered no row');
  switch (row.kind) {
    case 'ok':
    case 'replay':
      if (row.bodyText === null) throw new Error(`withdrawal_request answered ${row.kind} without its answer`);
      return { kind: row.kind, bodyText: row.bodyText };
    case 'tpin_locked':
      if (!row.lockedUntil) throw new Error('withdrawal_request answered tpin_locked without a time');
      return { kind: row.kind, lockedUntil: row.lockedUntil };
    case 'idempotency_mismatch':
    case 'account_missing':
    case 'money_movement_locked':
    case 'insufficient_funds':
      return { kind: row.kind };
    default:
      if (isStepUpKind(row.kind)) {
        const remaining = row.bodyText === null ? null : ((JSON.parse(row.bodyText) as { remaining?: number | null }).remaining ?? null);
        return { kind: 'step_up', refusal: row.kind, remaining };
      }
      throw new Error(`withdrawal_request answered an unknown kind ${row.kind}`);
  }
}

export interface WithdrawalMoveInput {
  id: string;
  from: string;
  to: string;
  /** The acting operator (never on an account their own user holds); null for the owner's cancel. */
  operatorId: string | null;
  /** The owner's account for a cancel (its locks are decided again, and it must own the withdrawal). */
  ownerAccountId: string | null;
  /** A completion without a four-eyes approval is refused from this amount. */
  fourEyesFromCents: Cents | null;
  /** A fail is refused while a payout request for the withdrawal awaits its decision. */
  checkOpenPayout: boolean;
  failureReason: string | null;
  /** The money back to the wallet (fail, cancel). */
  returned: { transaction_id: string; transaction_for: string; metadata: Record<string, unknown> } | null;
  activity: { name: string; comment: string };
  audit: AuditInput;
  idempotency: Idempotency | null;
  /** A cancel's answer without its update time. */
  answer: Record<string, unknown> | null;
}

export type WithdrawalMoveOutcome =
  | { kind: 'ok'; movedAt: Date; bodyText: string | null }
  | { kind: 'replay'; bodyText: string }
  | { kind: 'wrong_status'; currentStatus: string }
  | { kind: 'tpin_locked'; lockedUntil: Date }
  | { kind: 'idempotency_mismatch' | 'not_found' | 'own_record' | 'four_eyes_required' | 'completion_awaiting_decision' | 'money_movement_locked' };

const WITHDRAWAL_MOVE = namedStatement(
  'withdrawal_move_v1',
  'SELECT kind, body::text AS body_text, current_status, moved_at, locked_until FROM withdrawal_move($1::uuid, $2, $3, $4::uuid, $5::uuid, $6::bigint, $7::boolean, $8, $9::jsonb, $10::jsonb, $11::jsonb, $12, $13, $14, $15::jsonb)',
);

export async function withdrawalMove(db: Db | Trx, input: WithdrawalMoveInput): Promise<WithdrawalMoveOutcome> {
  const { rows } = await db.executeQuery<{ kind: string; bodyText: string | null; currentStatus: string | null; movedAt: Date | null; lockedUntil: Date | null }>(
    CompiledQuery.raw(WITHDRAWAL_MOVE, [
      input.id,
      input.from,
      input.to,
      input.operatorId,
      input.ownerAccountId,
      input.fourEyesFromCents,
      input.checkOpenPayout,
      input.failureReason,
      input.returned === null ? null : JSON.stringify(input.returned),
      JSON.stringify(input.activity),
      JSON.stringify(input.audit),
      input.idempotency?.caller ?? null,
      input.idempotency?.key ?? null,
      input.idempotency?.requestHash ?? null,
      input.answer === null ? null : JSON.stringify(input.answer),
    ]),
  );
  const row = rows[0];
  if (!row) throw new Error('withdrawal_move answered no row');
  switch (row.kind) {
    case 'ok':
      if (!row.movedAt) throw new Error('withdrawal_move answered ok without the time');
      return { kind: 'ok', movedAt: row.movedAt, bodyText: row.bodyText };
    case 'replay':
      if (row.bodyText === null) throw new Error('withdrawal_move answered a replay without its answer');
      return { kind: 'replay', bodyText: row.bodyText };
    case 'wrong_status':
      if (row.currentStatus === null) throw new Error('withdrawal_move answered wrong_status without the status');
      return { kind: 'wrong_status', currentStatus: row.currentStatus };
    case 'tpin_locked':
      if (!row.lockedUntil) throw new Error('withdrawal_move answered tpin_locked without a time');
      return { kind: 'tpin_locked', lockedUntil: row.lockedUntil };
    case 'idempotency_mismatch':
    case 'not_found':
    case 'own_record':
    case 'four_eyes_required':
    case 'completion_awaiting_decision':
    case 'money_movement_locked':
      return { kind: row.kind };
    default:
      throw new Error(`withdrawal_move answered an unknown kind ${row.kind}`);
  }
}

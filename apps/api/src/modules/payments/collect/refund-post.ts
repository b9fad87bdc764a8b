import { asCents, type Cents } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../../db/database.ts';

/*
 * The refund pipeline's database steps, each one call of a PL/pgSQL function sent as a named
 * prepared statement (like collect_post): `refund_post` (db/functions/refund_post.sql) takes
 * the money from the owner under the record's row lock, `refund_settle` finishes or undoes a
 * card refund after the processor answered.
 */

export interface RefundPostInput {
  target: 'payment' | 'link';
  recordId: string;
  refundId: string;
  amountCents: Cents;
  windowDays: number;
  destination: { type: 'wallet'; accountId: string; masked: string } | { type: 'card'; reference: string; masked: string };
  transactionId: string;
  initiatedBy: 'store' | 'owner' | 'operator';
  initiatedByUserId: string | null;
  initiatedByName: string;
  reason: string | null;
  activities: { account_id: string; name: string; comment: string }[];
  audit: { actor_user_id: string | null; action: string; subject_type: string; subject_id: string; details: Record<string, unknown> };
  idempotencyCaller: string;
  idempotencyKey: string | undefined;
  requestHash: string;
}

export type RefundPostKind =
  | 'ok'
  | 'replay'
  | 'idempotency_mismatch'
  | 'not_refundable'
  | 'window_closed'
  | 'exceeds_remaining'
  | 'money_movement_locked'
  | 'insufficient_funds';

export type RefundPostOutcome =
  | { kind: 'ok' | 'replay'; refundId: string; remainingCents: Cents | null }
  | { kind: 'exceeds_remaining'; remainingCents: Cents }
  | { kind: Exclude<RefundPostKind, 'ok' | 'replay' | 'exceeds_remaining'> };

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const REFUND_POST = namedStatement(
  'refund_post_v1',
  'SELECT kind, refund_id, remaining FROM refund_post($1, $2::uuid, $3::uuid, $4::bigint, $5::integer, $6, $7::uuid, $8, $9, $10, $11, $12::uuid, $13, $14, $15::jsonb, $16::jsonb, $17, $18, $19)',
);

const KINDS = new Set<string>(['ok', 'replay', 'idempotency_mismatch', 'not_refundable', 'window_closed', 'exceeds_remaining', 'money_movement_locked', 'insufficient_funds']);

export async function refundPost(db: Db, input: RefundPostInput): Promise<RefundPostOutcome> {
  const { destination } = input;
  const { rows } = await db.executeQuery<{ kind: string; refundId: string | null; remaining: string | number | null }>(
    CompiledQuery.raw(REFUND_POST, [
      input.target,
      input.recordId,
      input.refundId,
      input.amountCents,
      input.windowDays,
      destination.type,
      destination.type === 'wallet' ? destination.accountId : null,
      destination.masked,
      destination.type === 'card' ? destination.reference : null,
      input.transactionId,
      input.initiatedBy,
      input.initiatedByUserId,
      input.initiatedByName,
      input.reason,
      JSON.stringify(input.activities),
      JSON.stringify(input.audit),
      input.idempotencyCaller,
      input.idempotencyKey ?? null,
      input.requestHash,
    ]),
  );
  const row = rows[0];
  if (!row || !KINDS.has(row.kind)) throw new Error(`refund_post answered an unknown kind ${row?.kind}`);
  const remainingCents = row.remaining === null ? null : asCents(row.remaining);
  if (row.kind === 'ok' || row.kind === 'replay') {
    if (!row.refundId) throw new Error(`refund_post answered ${row.kind} without a refund`);
    return { kind: row.kind, refundId: row.refundId, remainingCents };
  }
  if (row.kind === 'exceeds_remaining') return { kind: 'exceeds_remaining', remainingCents: remainingCents ?? asCents(0) };
  return { kind: row.kind as Exclude<RefundPostKind, 'ok' | 'replay' | 'exceeds_remaining'> };
}

export interface RefundSettleInput {
  refundId: string;
  outcome: 'succeeded' | 'failed';
  failureReason: string | null;
  transactionId: string;
  activities: { account_id: string; name: string; comment: string }[];
  audit: { actor_user_id: string | null; action: string; subject_type: string; subject_id: string; details: Record<string, unknown> };
}

const REFUND_SETTLE = namedStatement('refund_settle_v1', 'SELECT kind, status FROM refund_settle($1::uuid, $2, $3, $4, $5::jsonb, $6::jsonb)');

/** Settles (or puts back) a processing card refund; answers whether this call did it, and the refund's status after. */
export async function refundSettle(db: Db, input: RefundSettleInput): Promise<{ settled: boolean; status: string | null }> {
  const { rows } = await db.executeQuery<{ kind: string; status: string | null }>(
    CompiledQuery.raw(REFUND_SETTLE, [input.refundId, input.outcome, input.failureReason, input.transactionId, JSON.stringify(input.activities), JSON.stringify(input.audit)]),
  );
  const row = rows[0];
  if (!row) throw new Error('refund_settle answered no row');
  if (row.kind === 'not_found') throw new Error(`refund_settle: no refund ${input.refundId}`);
  return { settled: row.kind === 'ok', status: row.status };
}

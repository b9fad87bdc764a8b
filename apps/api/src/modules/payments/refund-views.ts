import { asCents, centsToMajor, type RefundState, type RefundView } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { RefundsTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

/*
 * How refunds are read and shown (the refunds table is written only by the refund pipeline's
 * database functions): one refund, a payment's refunds, and what they add to a payment's view.
 */

export type RefundRow = Selectable<RefundsTable>;

export function findRefund(db: Db | Trx, refundId: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirst();
}

export function refundView(row: RefundRow): RefundView {
  return {
    refundId: row.id,
    paymentId: row.paymentId ?? row.linkPaymentId ?? '',
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    fee: { amount: centsToMajor(asCents(row.feeCents)), currency: row.currency },
    status: row.status,
    reason: row.reason,
    initiatedBy: { kind: row.initiatedBy, name: row.initiatedByName },
    destination: { type: row.destinationType, number: row.destinationMasked },
    transactionId: row.transactionId,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

/** The refunds of gateway payments (`payment`) or link payments (`link`), newest first, by the refunded record's id. */
export async function refundsByRecord(db: Db | Trx, target: 'payment' | 'link', recordIds: string[]): Promise<Map<string, RefundRow[]>> {
  const byRecord = new Map<string, RefundRow[]>();
  if (recordIds.length === 0) return byRecord;
  const column = target === 'payment' ? 'paymentId' : 'linkPaymentId';
  const rows = await db.selectFrom('refunds').selectAll().where(column, 'in', recordIds).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  for (const row of rows) {
    const key = (target === 'payment' ? row.paymentId : row.linkPaymentId) ?? '';
    byRecord.set(key, [...(byRecord.get(key) ?? []), row]);
  }
  return byRecord;
}

/** What a payment's refunds add to its view: the refunds, the amount refunded (succeeded), what is left, the label's state. */
export function refundSummary(record: { amountCents: number; refundReservedCents: number; paid: boolean }, rows: RefundRow[] = []) {
  const refundedCents = rows.filter((row) => row.status === 'succeeded').reduce((sum, row) => sum + Number(row.amountCents), 0);
  const refundState: RefundState | null = refundedCents === 0 ? null : refundedCents >= record.amountCents ? 'refunded' : 'partially_refunded';
  return {
    refunds: rows.map(refundView),
    amountRefunded: centsToMajor(asCents(refundedCents)),
    amountRefundable: record.paid ? centsToMajor(asCents(record.amountCents - record.refundReservedCents)) : 0,
    refundState,
  };
}

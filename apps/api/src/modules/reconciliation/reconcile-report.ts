import { formatMoney, isCurrency, majorToCents, mismatchKindLabels, type ReconciliationMismatchView } from '@kestrel/shared';
import type { ReconcileResult } from './reconcile.ts';

/** `npm run reconcile`'s words: what was compared, and each difference still open, one a line. */

const money = (amount: number | null, currency: string) => {
  if (amount === null) return 'none';
  const cents = majorToCents(amount);
  return cents !== undefined && isCurrency(currency) ? formatMoney(cents, currency) : `${amount} ${currency}`;
};

export function describeMismatch(mismatch: ReconciliationMismatchView): string {
  const what = mismatch.target && mismatch.recordId ? `${mismatch.target} ${mismatch.recordId}` : 'no payment named';
  const parts = [
    `processor ${money(mismatch.processorAmount, mismatch.currency)}${mismatch.processorStatus ? ` (${mismatch.processorStatus})` : ''}`,
    `ledger ${money(mismatch.ledgerAmount, mismatch.currency)}${mismatch.ledgerStatus ? ` (${mismatch.ledgerStatus})` : ''}`,
    what,
    ...(mismatch.accountNumber ? [`account ${mismatch.accountNumber}`] : []),
    ...(mismatch.card ? [mismatch.card] : []),
    ...(mismatch.transactionId ? [`transaction ${mismatch.transactionId}`] : []),
    ...(mismatch.refundId ? [`refund ${mismatch.refundId}`] : []),
  ];
  return `  ${mismatchKindLabels[mismatch.kind].padEnd(26)} ${mismatch.reference}: ${parts.join(', ')}`;
}

/** The summary line (stdout), then either OK (stdout) or the open differences (stderr, the command then exits 1). */
export function reconcileReport(result: ReconcileResult, open: ReconciliationMismatchView[], consoleUrl: string): { lines: string[]; ok: boolean } {
  const lines = [
    `Reconciliation of the card processor "${result.processor}" for ${result.day} (UTC): ${result.processorRecords} processor records (charges and refunds), ${result.ledgerRecords} card payments and card refunds in the ledger.`,
  ];
  const resolvedStill = result.found.length - open.length;
  if (open.length === 0) {
    lines.push(
      result.found.length === 0
        ? "OK: the processor's records and the ledger agree."
        : `OK: no open differences (${resolvedStill} found again, already resolved by an operator).`,
    );
    return { lines, ok: true };
  }
  lines.push(`${open.length} difference${open.length === 1 ? '' : 's'} open:`);
  for (const mismatch of open) lines.push(describeMismatch(mismatch));
  if (resolvedStill > 0) lines.push(`(${resolvedStill} more found again, already resolved by an operator.)`);
  lines.push(`Void, record or resolve them on the operator console: ${consoleUrl}`);
  return { lines, ok: false };
}

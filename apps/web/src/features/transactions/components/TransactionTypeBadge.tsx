import type { TransactionType } from '../api.ts';

/** Debit (money out) or credit (money in) for the active account. */
export function TransactionTypeBadge({ type }: { type: TransactionType | undefined }) {
  if (!type) return <span className="text-slate-500">—</span>;
  const tone = type === 'credit' ? 'bg-success-50 text-success-700' : 'bg-danger-50 text-danger-700';
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${tone}`}>{type}</span>;
}

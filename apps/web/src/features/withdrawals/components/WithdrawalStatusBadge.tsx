import type { WithdrawalStatus } from '@kestrel/shared';

/** The spec's colours: Completed green, Processing or Pending yellow, anything else red. */
const tones: Record<string, string> = {
  Completed: 'bg-success-50 text-success-700 ring-success-700/20',
  Processing: 'bg-warning-50 text-warning-700 ring-warning-700/20',
  Pending: 'bg-warning-50 text-warning-700 ring-warning-700/20',
};
const otherTone = 'bg-danger-50 text-danger-700 ring-danger-700/20';

export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus | string }) {
  return (
    <span data-status={status} className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[status] ?? otherTone}`}>
      {status}
    </span>
  );
}

import { Link } from 'react-router';
import { useApprovals, useOverview } from '../api.ts';
import { DayTotals } from './ApprovalsPage.tsx';
import { OpsHeading, QueryState } from '../components/ui.tsx';

/** /ops: how long each queue is, each linking to its queue, and today's totals per operator. */
export function OverviewPage() {
  const overview = useOverview();
  const approvals = useApprovals('Pending');
  const data = overview.data;
  const cards = data
    ? [
        { label: 'Pending approvals (four eyes)', count: approvals.data?.length ?? 0, to: '/ops/approvals' },
        { label: 'Stores pending approval', count: data.storesPending, to: '/ops/stores' },
        { label: 'Withdrawals pending', count: data.withdrawalsPending, to: '/ops/withdrawals?status=Pending' },
        { label: 'Withdrawals processing', count: data.withdrawalsProcessing, to: '/ops/withdrawals?status=Processing' },
        { label: 'Identity reviews waiting', count: data.identityReviewsWaiting, to: '/ops/identity' },
        { label: 'Callback deliveries failing', count: data.callbacksFailing, to: '/ops/callbacks' },
        { label: 'Reconciliation differences open', count: data.reconciliationOpen, to: '/ops/reconciliation' },
      ]
    : [];
  return (
    <>
      <OpsHeading title="Queues" />
      <QueryState isPending={overview.isPending} error={overview.error}>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li key={card.label}>
              <Link to={card.to} className={`${cardClass} hover:border-brand-700 focus-visible:outline-2 focus-visible:outline-brand-700`}>
                <CardText label={card.label} count={card.count} />
              </Link>
            </li>
          ))}
        </ul>
      </QueryState>
      <DayTotals />
    </>
  );
}

const cardClass = 'flex items-center justify-between rounded-xl border border-slate-200 bg-white p-4 shadow-sm';

function CardText({ label, count }: { label: string; count: number }) {
  return (
    <>
      <span className="font-medium text-slate-800">{label}</span>
      <span className="text-3xl font-bold text-slate-900">{count}</span>
    </>
  );
}

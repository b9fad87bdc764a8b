import { Link } from 'react-router';
import { PaymentCharts } from '../../payments/components/PaymentCharts.tsx';
import { useApprovals, useOperatorCharts, useOverview } from '../api.ts';
import { DayTotals } from './ApprovalsPage.tsx';
import { OpsHeading, QueryState } from '../components/ui.tsx';

/** /ops: how long each queue is, each linking to its queue, payments and the callback backlog over the last 30 days, and today's totals per operator. */
export function OverviewPage() {
  const overview = useOverview();
  const approvals = useApprovals('Pending');
  const charts = useOperatorCharts();
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
      <section aria-labelledby="ops-activity" className="mt-8">
        <h2 id="ops-activity" className="mb-3 text-lg font-semibold text-slate-900">
          Payments and callbacks
        </h2>
        {charts.data ? (
          <p className="mb-3 text-sm text-slate-700">
            Callback backlog: <strong className="tabular-nums">{charts.data.callbackBacklog.toLocaleString('en-US')}</strong> waiting to be sent now,{' '}
            <Link to="/ops/callbacks" className="font-medium text-brand-700 underline">
              {charts.data.callbacksFailing.toLocaleString('en-US')} failing
            </Link>
            .
          </p>
        ) : null}
        <div className="grid gap-4 xl:grid-cols-2">
          <PaymentCharts chart={charts.data} isPending={charts.isPending} error={charts.error} failureRate headingLevel={3} />
        </div>
      </section>
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

import { asCurrency, formatDateTime } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ListLoadError, ListSkeleton } from '../../../components/ListStates.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { BackLink } from '../../transfers/components/BackLink.tsx';
import { useWithdrawalDetails } from '../api.ts';
import { CancelWithdrawalForm } from '../components/CancelWithdrawalForm.tsx';
import { WithdrawalStatusBadge } from '../components/WithdrawalStatusBadge.tsx';

const title = 'Withdrawal Details';

/** "CHECKING" -> "Checking". */
const accountTypeLabel = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)] gap-3 py-2.5 sm:grid-cols-[12rem_minmax(0,1fr)]">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** /withdraw/bank/{withdrawalId}: where the money goes, the status history and, while Pending, the cancel. */
export function WithdrawalDetailsPage() {
  const { withdrawalId = '' } = useParams();
  const details = useWithdrawalDetails(withdrawalId);
  const w = details.data;

  let body;
  if (details.isPending) body = <ListSkeleton label="Loading the withdrawal" />;
  else if (!w) body = <ListLoadError query={details} fallback="The withdrawal could not be loaded." />;
  else {
    body = (
      <div className="space-y-6">
        <section aria-label="Withdrawal" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-2xl font-bold tracking-tight text-slate-900 tabular-nums">{formatApiMoney(w.amount, asCurrency(w.currency))}</p>
            <WithdrawalStatusBadge status={w.status} />
          </div>
          <dl className="mt-4 divide-y divide-slate-100 text-sm">
            <Fact label="Bank">{w.bankName}</Fact>
            {w.branchName && <Fact label="Branch">{w.branchName}</Fact>}
            <Fact label="Country">{w.country}</Fact>
            {w.accountType && <Fact label="Account type">{accountTypeLabel(w.accountType)}</Fact>}
            <Fact label="Account No.">
              <span className="font-mono">{w.bankAccountNumber}</span>
            </Fact>
            <Fact label="Routing Number">
              <span className="font-mono">{w.routingNumber}</span>
            </Fact>
            <Fact label="Account holder">{w.accountHolderName}</Fact>
            {w.failureReason && <Fact label="Reason">{w.failureReason}</Fact>}
          </dl>
        </section>
        <section aria-labelledby="status-history" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
          <h2 id="status-history" className="text-lg font-semibold text-slate-900">
            Status history
          </h2>
          <ol className="mt-3 space-y-3">
            {w.history.map((step) => (
              <li key={`${step.status}-${step.at}`} className="flex flex-wrap items-center gap-3 text-sm">
                <WithdrawalStatusBadge status={step.status} />
                <time dateTime={step.at} className="text-slate-700">
                  {formatDateTime(step.at)}
                </time>
              </li>
            ))}
          </ol>
        </section>
        {w.status === 'Pending' && <CancelWithdrawalForm withdrawalId={w._id} />}
      </div>
    );
  }

  return (
    <>
      <PageTitle title={title} />
      <BackLink to="/withdraw/bank">Bank withdrawals</BackLink>
      <div className="mt-2 max-w-3xl">
        <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {body}
      </div>
    </>
  );
}

import { uiText } from '@kestrel/shared';
import { useDeferredValue } from 'react';
import { BankIcon, CardIcon, CheckCircleIcon, ListIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useAccountChart, useAccountCounters } from '../../accounts/api.ts';
import { AccountCharts } from '../components/AccountCharts.tsx';
import { usePortalUser } from '../../../lib/portal-user.ts';
import { CounterCard } from '../../../components/CounterCard.tsx';

const d = uiText.dashboard;

/**
 * / and /dashboard: the four counters of the active account (GET /v1/account/{accountNumber}/summary)
 * and, below them once those have answered, its balance and money in / out over the last 30 days
 * (GET …/chart).
 */
export function DashboardPage() {
  const user = usePortalUser();
  const { accountNumber } = useSession();
  const counters = useAccountCounters(accountNumber);
  // The charts are asked for once the counters have answered (or failed): the counters, the
  // page's first figures, do not share the network and the main thread with them.
  const chart = useAccountChart(accountNumber, counters.data !== undefined || counters.isError);
  // Drawn in a transition (in slices), like the shell: 30 days of two charts and their tables.
  const chartData = useDeferredValue(chart.data);
  // Until the active account is known (the gate sets it) the counters show as loading.
  const loading = !counters.data && !counters.isError;
  const value = (count: number | undefined) => (count === undefined ? '–' : count.toLocaleString('en-US'));
  return (
    <>
      <PageTitle title={d.title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{d.title}</h1>
        <p className="mt-1 text-slate-600">Welcome back, {user.firstName}.</p>
      </div>
      {counters.isError && (
        <p role="alert" className="mb-4 rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(counters.error, 'The counters could not be loaded.')}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <CounterCard label={d.totalPayments} value={value(counters.data?.totalPayments)} icon={CardIcon} tone="brand" loading={loading} />
        <CounterCard label={d.successPayment} value={value(counters.data?.successPayments)} icon={CheckCircleIcon} tone="success" loading={loading} />
        <CounterCard label={d.totalWithdraw} value={value(counters.data?.totalWithdraw)} icon={BankIcon} tone="accent" loading={loading} />
        <CounterCard label={d.totalTransaction} value={value(counters.data?.totalTransactions)} icon={ListIcon} tone="sky" loading={loading} />
      </div>
      <AccountCharts chart={chartData} isPending={!chartData && !chart.isError} error={chart.error} />
    </>
  );
}

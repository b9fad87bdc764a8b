import { useDeferredValue } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useAccountChart, useAccountCounters } from '../../accounts/api.ts';
import { AccountCharts } from '../components/AccountCharts.tsx';
import { DashboardCounters, DashboardHeading } from '../components/DashboardTop.tsx';
import { usePortalUser } from '../../../lib/portal-user.ts';

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
  return (
    <>
      <DashboardHeading firstName={user.firstName} />
      {counters.isError && (
        <p role="alert" className="mb-4 rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(counters.error, 'The counters could not be loaded.')}
        </p>
      )}
      <DashboardCounters counters={counters.data} loading={loading} />
      <AccountCharts chart={chartData} isPending={!chartData && !chart.isError} error={chart.error} />
    </>
  );
}

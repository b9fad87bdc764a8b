import { uiText, type AccountCounters } from '@kestrel/shared';
import { BankIcon, CardIcon, CheckCircleIcon, ListIcon } from '../../../components/icons.tsx';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';

const d = uiText.dashboard;

/**
 * The top of the dashboard: its title and the greeting, the greeting a grey shape until the
 * user's first name is known (the skeleton, below).
 */
export function DashboardHeading({ firstName }: { firstName: string | undefined }) {
  return (
    <>
      <PageTitle title={d.title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{d.title}</h1>
        {firstName === undefined ? (
          <p aria-hidden="true" className="mt-1 text-slate-600">
            <span className="inline-block h-4 w-44 animate-pulse rounded bg-slate-200 align-middle" />
          </p>
        ) : (
          <p className="mt-1 text-slate-600">Welcome back, {firstName}.</p>
        )}
      </div>
    </>
  );
}

const value = (count: number | undefined) => (count === undefined ? '–' : count.toLocaleString('en-US'));

/** The four counters of the active account; `loading` draws them as grey shapes. */
export function DashboardCounters({ counters, loading }: { counters: AccountCounters | undefined; loading: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <CounterCard label={d.totalPayments} value={value(counters?.totalPayments)} icon={CardIcon} tone="brand" loading={loading} />
      <CounterCard label={d.successPayment} value={value(counters?.successPayments)} icon={CheckCircleIcon} tone="success" loading={loading} />
      <CounterCard label={d.totalWithdraw} value={value(counters?.totalWithdraw)} icon={BankIcon} tone="accent" loading={loading} />
      <CounterCard label={d.totalTransaction} value={value(counters?.totalTransactions)} icon={ListIcon} tone="sky" loading={loading} />
    </div>
  );
}

/**
 * The dashboard before anything of the user's has come: the title, and the greeting and the four
 * counters as grey shapes. The build prerenders it, in the portal's shell, into dashboard.html
 * (the page's first paint), and the portal gate renders the same while the profile loads.
 */
export function DashboardSkeleton() {
  return (
    <>
      <DashboardHeading firstName={undefined} />
      <DashboardCounters counters={undefined} loading />
    </>
  );
}

import { uiText } from '@kestrel/shared';
import { BankIcon, CardIcon, CheckCircleIcon, ListIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { usePortalUser } from '../../portal/portal-user.ts';
import { CounterCard } from '../components/CounterCard.tsx';

const d = uiText.dashboard;

/** / and /dashboard: the four counters. */
export function DashboardPage() {
  const user = usePortalUser();
  // TODO(dashboard issue): the counters read 0 until they are wired to payments,
  // withdrawals and transactions of the active account.
  const counters = { totalPayments: 0, successPayment: 0, totalWithdraw: 0, totalTransaction: 0 };
  return (
    <>
      <PageTitle title={d.title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{d.title}</h1>
        <p className="mt-1 text-slate-600">Welcome back, {user.firstName}.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <CounterCard label={d.totalPayments} value={counters.totalPayments} icon={CardIcon} tone="brand" />
        <CounterCard label={d.successPayment} value={counters.successPayment} icon={CheckCircleIcon} tone="success" />
        <CounterCard label={d.totalWithdraw} value={counters.totalWithdraw} icon={BankIcon} tone="accent" />
        <CounterCard label={d.totalTransaction} value={counters.totalTransaction} icon={ListIcon} tone="sky" />
      </div>
    </>
  );
}

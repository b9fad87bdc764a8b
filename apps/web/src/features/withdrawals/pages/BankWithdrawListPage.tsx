import { asCurrency, formatDateTime, uiText } from '@kestrel/shared';
import { Link } from 'react-router';
import { AlertCircleIcon, BankIcon, CheckCircleIcon, HistoryIcon, ListIcon } from '../../../components/icons.tsx';
import { AccountListPage } from '../../../components/AccountListPage.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { useSession } from '../../../lib/session.ts';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { useWithdrawalCounters, useWithdrawals, type Withdrawal } from '../api.ts';
import { NewWithdrawForm } from '../components/NewWithdrawForm.tsx';
import { WithdrawalStatusBadge } from '../components/WithdrawalStatusBadge.tsx';
import { DataTable } from '../../../components/DataTable.tsx';

const title = 'Bank Withdraw';
const columns = ['Amount', 'Bank', 'Account No.', 'Routing Number', 'Date'] as const;

/** The counters over every withdrawal of the account, counted by the server (the list shows a page at a time). */
function Counters({ accountNumber }: { accountNumber: string | undefined }) {
  const counters = useWithdrawalCounters(accountNumber);
  const loading = !counters.data;
  const value = (name: 'completed' | 'pending' | 'total' | 'failed') => counters.data?.[name] ?? 0;
  return (
    <section aria-label="Withdraw counters" className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <CounterCard label="Completed" value={value('completed')} icon={CheckCircleIcon} tone="success" loading={loading} />
      {/* Pending counts every withdrawal still on its way (Pending or Processing), as its yellow badge shows. */}
      <CounterCard label="Pending" value={value('pending')} icon={HistoryIcon} tone="sky" loading={loading} />
      <CounterCard label={uiText.dashboard.totalWithdraw} value={value('total')} icon={BankIcon} tone="brand" loading={loading} />
      <CounterCard label="Failed" value={value('failed')} icon={AlertCircleIcon} tone="accent" loading={loading} />
    </section>
  );
}

/** The link that opens a withdrawal's details; its ::after covers the whole row or card, so a click anywhere opens it. */
function DetailsLink({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <Link
      to={`/withdraw/bank/${withdrawal._id}`}
      aria-label={`${formatApiMoney(withdrawal.amount, asCurrency(withdrawal.currency))}, ${withdrawal.status}: details`}
      className="mr-2 font-semibold whitespace-nowrap text-slate-900 tabular-nums after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none focus-visible:after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-brand-600"
    >
      {formatApiMoney(withdrawal.amount, asCurrency(withdrawal.currency))}
    </Link>
  );
}

const bankOf = (w: Withdrawal) => `${w.bankName}${w.branchName ? `, ${w.branchName}` : ''}`;

function WithdrawalsTable({ withdrawals }: { withdrawals: readonly Withdrawal[] }) {
  return (
    <DataTable caption="Bank withdrawals, newest first" columns={columns}>
      {withdrawals.map((w) => (
        <tr key={w._id} className="relative cursor-pointer hover:bg-slate-50">
          <td className="px-4 py-3">
            <DetailsLink withdrawal={w} />
            <WithdrawalStatusBadge status={w.status} />
            {w.failureReason && <span className="mt-1 block text-xs text-danger-700">Reason: {w.failureReason}</span>}
          </td>
          <td className="px-4 py-3">
            <span className="block font-medium text-slate-900">{bankOf(w)}</span>
            <span className="block text-xs text-slate-600">{w.country}</span>
          </td>
          <td className="px-4 py-3 font-mono text-slate-700">{w.bankAccountNumber}</td>
          <td className="px-4 py-3 font-mono text-slate-700">{w.routingNumber}</td>
          <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(w.updatedAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Phones: one card per withdrawal with the table's columns as labelled lines. */
function WithdrawalCards({ withdrawals }: { withdrawals: readonly Withdrawal[] }) {
  return (
    <ul aria-label="Bank withdrawals" className="space-y-3 md:hidden">
      {withdrawals.map((w) => (
        <li key={w._id} className="relative rounded-2xl border border-slate-200 bg-white p-4 shadow-xs">
          <div className="flex items-start justify-between gap-3">
            <p className="text-xl font-bold tracking-tight">
              <DetailsLink withdrawal={w} />
            </p>
            <WithdrawalStatusBadge status={w.status} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Bank</dt>
            <dd className="text-slate-900">
              {bankOf(w)} · {w.country}
            </dd>
            <dt className="text-slate-600">Account No.</dt>
            <dd className="font-mono text-slate-900">{w.bankAccountNumber}</dd>
            <dt className="text-slate-600">Routing Number</dt>
            <dd className="font-mono text-slate-900">{w.routingNumber}</dd>
            <dt className="text-slate-600">Date</dt>
            <dd className="text-slate-900">{formatDateTime(w.updatedAt)}</dd>
          </dl>
          {w.failureReason && <p className="mt-2 text-sm text-danger-700">Reason: {w.failureReason}</p>}
        </li>
      ))}
    </ul>
  );
}

/** /withdraw/bank: counters and the list; with no withdrawals yet, the new-withdraw form instead. */
export function BankWithdrawListPage() {
  const { accountNumber } = useSession();
  const withdrawals = useWithdrawals(accountNumber);
  const list = withdrawals.data?.pages.flat() ?? [];
  return (
    <AccountListPage
      title={title}
      accountNumber={accountNumber}
      csv={{ kind: 'withdrawals', what: 'withdrawals' }}
      create={{ to: '/bank/withdraw/new', label: '+ New withdraw' }}
      summary={<Counters accountNumber={accountNumber} />}
      query={withdrawals}
      count={list.length}
      items="withdrawals"
      empty={
        <div className="max-w-3xl">
          <p className="mb-4 flex items-center gap-2 text-slate-600">
            <ListIcon className="size-5 text-slate-500" /> You have no withdrawals yet. Request your first one here.
          </p>
          <NewWithdrawForm />
        </div>
      }
    >
      <WithdrawalsTable withdrawals={list} />
      <WithdrawalCards withdrawals={list} />
    </AccountListPage>
  );
}

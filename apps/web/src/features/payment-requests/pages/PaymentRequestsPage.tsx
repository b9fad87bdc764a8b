import { formatDateTime, paymentRequestMessages as m, uiText, type PaymentRequestCounters, type PaymentRequestView } from '@kestrel/shared';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/Button.tsx';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { CheckCircleIcon, HistoryIcon, LinkIcon, ListIcon, WalletIcon } from '../../../components/icons.tsx';
import { AccountListPage } from '../../../components/AccountListPage.tsx';
import { useSession } from '../../../lib/session.ts';
import { usePaymentRequestCounters, usePaymentRequests } from '../api.ts';
import { copyLink } from '../components/copy-link.ts';
import { linkAmountText, PaymentRequestStatusBadge, remainingLimitText } from '../components/PaymentRequestBits.tsx';
import { apiCents } from '../../../lib/money.ts';
import { refundedText } from '../../payments/components/PaymentsList.tsx';

const title = uiText.nav.paymentRequest;
const columns = ['Request URL', 'Status', 'Amount', 'Remaining Limit', 'Date', 'Details'] as const;

const detailsPath = (link: PaymentRequestView) => `/payment-request/details/${encodeURIComponent(link._id)}`;

/** The link itself: a click copies the full address (the spec's Request URL cell). */
function CopyableUrl({ link }: { link: PaymentRequestView }) {
  return (
    <button
      type="button"
      onClick={() => void copyLink(link.pRequestURL)}
      title={`Copy ${link.pRequestURL}`}
      className="block max-w-full rounded text-left font-mono text-xs break-all text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-900"
    >
      <span className="sr-only">Copy payment link </span>
      {link.pRequestURL}
    </button>
  );
}

function Counters({ accountNumber }: { accountNumber: string | undefined }) {
  const counters = usePaymentRequestCounters(accountNumber);
  const loading = !accountNumber || (counters.isPending && counters.fetchStatus !== 'idle');
  // A failed count reads '—' rather than a wrong 0.
  const value = (pick: (c: PaymentRequestCounters) => number) => (counters.data ? pick(counters.data) : '—');
  return (
    <section aria-label="Payment request counters" className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <CounterCard label="Total Request" value={value((c) => c.total)} icon={LinkIcon} tone="brand" loading={loading} />
      <CounterCard label="Active Request" value={value((c) => c.active)} icon={CheckCircleIcon} tone="success" loading={loading} />
      <CounterCard label="Total Payments" value={value((c) => c.payments)} icon={WalletIcon} tone="sky" loading={loading} />
      {/* Real refunds of the links' payments (issue 23): how many, and how much. */}
      <CounterCard
        label="Total Refund"
        value={value((c) => c.refundCount)}
        detail={counters.data ? refundedText(apiCents(counters.data.refundedAmount)) : undefined}
        icon={HistoryIcon}
        tone="accent"
        loading={loading}
      />
    </section>
  );
}

function LinksTable({ links }: { links: readonly PaymentRequestView[] }) {
  return (
    <DataTable caption="Payment links of the active account, newest first" columns={columns}>
      {links.map((link) => (
        <tr key={link._id} className="hover:bg-slate-50">
          <td className="w-[16rem] max-w-[16rem] px-4 py-3">
            <CopyableUrl link={link} />
            <span className="mt-0.5 block truncate text-xs text-slate-600">{link.paymentPurpose}</span>
          </td>
          <td className="px-4 py-3">
            <PaymentRequestStatusBadge status={link.status} />
          </td>
          <td className="px-4 py-3 font-semibold whitespace-nowrap text-slate-900 tabular-nums">{linkAmountText(link)}</td>
          <td className="px-4 py-3 whitespace-nowrap text-slate-700">{remainingLimitText(link)}</td>
          <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(link.createdAt)}</td>
          <td className="px-4 py-3">
            <Link to={detailsPath(link)} className="font-semibold text-brand-700 hover:text-brand-900" aria-label={`Details of ${link.paymentPurpose}`}>
              Details
            </Link>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Phones: one card per link with the table's columns as labelled lines. */
function LinkCards({ links }: { links: readonly PaymentRequestView[] }) {
  return (
    <ul aria-label="Payment links" className="space-y-3 md:hidden">
      {links.map((link) => (
        <li key={link._id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate font-semibold text-slate-900">{link.paymentPurpose}</p>
              <p className="text-xl font-bold tracking-tight text-slate-900 tabular-nums">{linkAmountText(link)}</p>
            </div>
            <PaymentRequestStatusBadge status={link.status} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Request URL</dt>
            <dd className="min-w-0">
              <CopyableUrl link={link} />
            </dd>
            <dt className="text-slate-600">Remaining Limit</dt>
            <dd className="text-slate-900">{remainingLimitText(link)}</dd>
            <dt className="text-slate-600">Date</dt>
            <dd className="text-slate-900">{formatDateTime(link.createdAt)}</dd>
          </dl>
          <Link to={detailsPath(link)} className={buttonClasses('secondary', 'md', 'mt-3 w-full')} aria-label={`Details of ${link.paymentPurpose}`}>
            Details
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** /payment-request: the active account's payment links, their counters, and the way to a new one. */
export function PaymentRequestsPage() {
  const { accountNumber } = useSession();
  const links = usePaymentRequests(accountNumber);
  const list = links.data?.pages.flat() ?? [];
  return (
    <AccountListPage
      title={title}
      accountNumber={accountNumber}
      csv={{ kind: 'payment-request-payments', what: 'payments through your payment requests', label: 'Export payments CSV' }}
      create={{ to: '/payment-request/new', label: m.newRequest }}
      summary={<Counters accountNumber={accountNumber} />}
      query={links}
      count={list.length}
      items="payment links"
      empty={
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <ListIcon className="size-8 text-slate-400" />
          <p className="text-lg font-semibold text-slate-900">{m.noLinks}</p>
          <Link to="/payment-request/new" className="font-semibold text-brand-700 underline hover:text-brand-900">
            {m.createNew}
          </Link>
        </div>
      }
    >
      <LinksTable links={list} />
      <LinkCards links={list} />
    </AccountListPage>
  );
}

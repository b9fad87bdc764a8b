import { asCurrency, CURRENCIES, formatDateTime, formatMoney, paymentMessages, type Cents, type PaymentCounters, type PaymentView } from '@kestrel/shared';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AlertCircleIcon, CardIcon, CheckCircleIcon, HistoryIcon, ListIcon } from '../../../components/icons.tsx';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { errorMessage } from '../../../lib/http.ts';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { LoadMore } from '../../../components/ListStates.tsx';
import type { ReactNode } from 'react';
import { PaymentMethodMark, PaymentStatusBadge, RefundStateBadge } from './PaymentBits.tsx';
import { DataTable } from '../../../components/DataTable.tsx';

const columns = ['Amount', 'Order ID', 'Customer', 'Method', 'Transaction ID', 'Date'] as const;

/** A list's paging state, as an infinite query gives it. */
export interface PaymentPaging {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/** The refund counters' amount (cents). Payments are in the one currency Kestrel takes (USD). */
export const refundedText = (cents: Cents) => formatMoney(cents, CURRENCIES[0]);

const detailsPath = (payment: PaymentView) => `/payment/details/${payment.paymentId}`;

/**
 * Rows with a payment source open the details page (spec 000 §2): a click anywhere on the row
 * does, and the amount is the row's real link, which Tab reaches and Enter follows. A click
 * on the link itself, or one that ends a text selection, is left alone.
 */
function useOpenRow() {
  const navigate = useNavigate();
  return (payment: PaymentView) =>
    payment.paymentSourceType
      ? {
          onClick: (event: MouseEvent<HTMLElement>) => {
            if ((event.target as HTMLElement).closest('a, button') || window.getSelection()?.toString()) return;
            void navigate(detailsPath(payment));
          },
          className: 'cursor-pointer',
        }
      : { onClick: undefined, className: '' };
}

/** The amount: the row's link to its details when it has a payment source. */
function AmountCell({ payment }: { payment: PaymentView }) {
  const amount = formatApiMoney(payment.amount, asCurrency(payment.currency));
  return (
    <span className="flex flex-wrap items-center gap-2">
      {payment.paymentSourceType ? (
        <Link to={detailsPath(payment)} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {amount}
        </Link>
      ) : (
        <span className="font-semibold text-slate-900">{amount}</span>
      )}
      <PaymentStatusBadge payment={payment} />
      <RefundStateBadge payment={payment} />
    </span>
  );
}

/**
 * The payments list of the /payments page and of a store's Payments tab: the five counters
 * (All Payments, Succeeded, Initiated, Refunded, Failed: the server's, over every payment),
 * optional filters, and the table (cards on phones) a page at a time with "Load more".
 */
export function PaymentsList({
  payments,
  counters,
  paging,
  filters,
  isLoading,
  error,
  emptyText,
  caption,
}: {
  payments: readonly PaymentView[] | undefined;
  counters: PaymentCounters | undefined;
  paging: PaymentPaging;
  filters?: ReactNode;
  isLoading: boolean;
  error: unknown;
  emptyText: string;
  caption: string;
}) {
  const count = counters ?? { all: 0, succeeded: 0, initiated: 0, failed: 0, refundCount: 0, refundedAmount: 0 };
  const countersLoading = !counters;
  const openRow = useOpenRow();
  const loading = isLoading && !payments;
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
        <CounterCard label="All Payments" value={count.all} icon={ListIcon} loading={countersLoading} />
        <CounterCard label="Succeeded" value={count.succeeded} icon={CheckCircleIcon} tone="success" loading={countersLoading} />
        <CounterCard label="Initiated" value={count.initiated} icon={HistoryIcon} tone="accent" loading={countersLoading} />
        {/* Real refunds (issue 23, a step beyond the spec's fixed 0): how many succeeded, and their sum. */}
        <CounterCard label="Refunded" value={count.refundCount} detail={refundedText(apiCents(count.refundedAmount))} icon={CardIcon} tone="sky" loading={countersLoading} />
        <CounterCard label="Failed" value={count.failed} icon={AlertCircleIcon} tone="accent" loading={countersLoading} />
      </div>
      {filters}
      {error ? (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(error, 'The payments could not be loaded.')}
        </p>
      ) : loading ? (
        <div role="status" aria-label="Loading payments" className="h-40 animate-pulse rounded-2xl bg-slate-200/70" />
      ) : !payments?.length ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-12 text-center font-medium text-slate-600">{emptyText}</p>
      ) : (
        <>
          <DataTable caption={caption} columns={columns}>
            {payments.map((payment) => (
              <tr key={payment.paymentId} onClick={openRow(payment).onClick} className={`hover:bg-slate-50 ${openRow(payment).className}`}>
                <td className="px-4 py-3 whitespace-nowrap">
                  <AmountCell payment={payment} />
                </td>
                <td className="px-4 py-3 text-slate-800">{payment.orderId}</td>
                <td className="px-4 py-3 text-slate-800">
                  {payment.customerName}
                  <span className="block text-xs text-slate-600">{payment.customerEmail}</span>
                </td>
                <td className="px-4 py-3">
                  <PaymentMethodMark brand={payment.paymentSource?.brand} />
                  {payment.paymentSource && <span className="block font-mono text-xs text-slate-600">{payment.paymentSource.number}</span>}
                </td>
                <td className="px-4 py-3 font-mono text-xs break-all text-slate-700">{payment.transactionId ?? '—'}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(payment.paidAt ?? payment.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
          <ul aria-label={caption} className="space-y-3 md:hidden">
            {payments.map((payment) => (
              <li key={payment.paymentId} onClick={openRow(payment).onClick} className={`rounded-2xl border border-slate-200 bg-white p-4 shadow-xs ${openRow(payment).className}`}>
                <AmountCell payment={payment} />
                <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-600">Order ID</dt>
                  <dd className="break-all text-slate-900">{payment.orderId}</dd>
                  <dt className="text-slate-600">Customer</dt>
                  <dd className="text-slate-900">{payment.customerName}</dd>
                  <dt className="text-slate-600">Method</dt>
                  <dd>
                    <PaymentMethodMark brand={payment.paymentSource?.brand} />
                  </dd>
                  <dt className="text-slate-600">Date</dt>
                  <dd className="text-slate-900">{formatDateTime(payment.paidAt ?? payment.createdAt)}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <LoadMore query={{ ...paging, error }} fallback="More payments could not be loaded." className="" />
        </>
      )}
    </div>
  );
}

export const paymentEmptyText = { account: paymentMessages.noPaymentsHistory, store: paymentMessages.noPayments };

import { asCurrency, formatDateTime, paymentMessages, REFUND_COUNTER, type PaymentView } from '@kestrel/shared';
import { Link } from 'react-router';
import { AlertCircleIcon, CardIcon, CheckCircleIcon, HistoryIcon, ListIcon } from '../../../components/icons.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { errorMessage } from '../../../lib/http.ts';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { isFailedPayment } from '../api.ts';
import { PaymentMethodMark, PaymentStatusBadge } from './PaymentBits.tsx';
import { DataTable } from '../../../components/DataTable.tsx';

const columns = ['Amount', 'Order ID', 'Customer', 'Method', 'Transaction ID', 'Date'] as const;

function counters(payments: readonly PaymentView[]) {
  return {
    all: payments.length,
    succeeded: payments.filter((payment) => payment.paymentStatus === 'success').length,
    initiated: payments.filter((payment) => payment.paymentStatus === 'initiate' && payment.paymentErrors.length === 0).length,
    failed: payments.filter(isFailedPayment).length,
  };
}

/** Rows with a payment source open the details page; the amount is a real link for keyboards and screen readers. */
function AmountCell({ payment }: { payment: PaymentView }) {
  const amount = formatApiMoney(payment.amount, asCurrency(payment.currency));
  return (
    <span className="flex flex-wrap items-center gap-2">
      {payment.paymentSourceType ? (
        <Link to={`/payment/details/${payment.paymentId}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {amount}
        </Link>
      ) : (
        <span className="font-semibold text-slate-900">{amount}</span>
      )}
      <PaymentStatusBadge payment={payment} />
    </span>
  );
}

/**
 * The payments list of the /payments page and of a store's Payments tab: the five counters
 * (All Payments, Succeeded, Initiated, Refunded, Failed) and the table (cards on phones).
 */
export function PaymentsList({
  payments,
  isLoading,
  error,
  emptyText,
  caption,
}: {
  payments: readonly PaymentView[] | undefined;
  isLoading: boolean;
  error: unknown;
  emptyText: string;
  caption: string;
}) {
  const count = counters(payments ?? []);
  const loading = isLoading && !payments;
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
        <CounterCard label="All Payments" value={count.all} icon={ListIcon} loading={loading} />
        <CounterCard label="Succeeded" value={count.succeeded} icon={CheckCircleIcon} tone="success" loading={loading} />
        <CounterCard label="Initiated" value={count.initiated} icon={HistoryIcon} tone="accent" loading={loading} />
        {/* Refunds do not exist yet, so the count is truly 0. */}
        <CounterCard label="Refunded" value={REFUND_COUNTER} icon={CardIcon} tone="sky" loading={loading} />
        <CounterCard label="Failed" value={count.failed} icon={AlertCircleIcon} tone="accent" loading={loading} />
      </div>
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
              <tr key={payment.paymentId} className="hover:bg-slate-50">
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
              <li key={payment.paymentId} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs">
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
        </>
      )}
    </div>
  );
}

export const paymentEmptyText = { account: paymentMessages.noPaymentsHistory, store: paymentMessages.noPayments };

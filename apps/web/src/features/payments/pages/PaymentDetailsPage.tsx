import { asCurrency, formatDateTime, paymentMessages } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { errorMessage } from '../../../lib/http.ts';
import { usePayment } from '../api.ts';
import { PaymentMethodMark, PaymentStatusBadge } from '../components/PaymentBits.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** /payment/details/{paymentId}: every field of one payment and its failed attempts. */
export function PaymentDetailsPage() {
  const { paymentId = '' } = useParams();
  const { data: payment, error, isPending } = usePayment(paymentId);
  return (
    <>
      <PageTitle title="Payment details" />
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Payment details</h1>
      {isPending ? (
        <div role="status" aria-label="Loading the payment" className="h-64 animate-pulse rounded-2xl bg-slate-200/70" />
      ) : error || !payment ? (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(error, 'No details found!')}
        </p>
      ) : (
        <div className="space-y-6">
          <section aria-label="Payment" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
            <dl className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              <Field label="Status">
                <PaymentStatusBadge payment={payment} />
              </Field>
              <Field label="Payment type">{payment.paymentSourceType ?? '—'}</Field>
              <Field label="Payment ID">
                <span className="font-mono text-sm">{payment.paymentId}</span>
              </Field>
              <Field label="Amount">
                <span className="font-semibold tabular-nums">{formatApiMoney(payment.amount, asCurrency(payment.currency))}</span>
              </Field>
              <Field label="Fee">{payment.fee ? `${formatApiMoney(payment.fee.amount, asCurrency(payment.fee.currency))} (${payment.fee.currency})` : '—'}</Field>
              <Field label="Transaction ID">
                <span className="font-mono text-sm">{payment.transactionId ?? paymentMessages.unsuccess}</span>
              </Field>
              <Field label="Payment method">
                <PaymentMethodMark brand={payment.paymentSource?.brand} />
                {payment.paymentSource && <span className="ml-2 font-mono text-sm">{payment.paymentSource.number}</span>}
              </Field>
              <Field label="Customer name">{payment.customerName}</Field>
              <Field label="Customer email">{payment.customerEmail}</Field>
              <Field label="Customer phone">{payment.customerPhone}</Field>
              <Field label="Customer address">{payment.customerAddress}</Field>
              <Field label="Order ID">{payment.orderId}</Field>
              <Field label="Store ID">
                <span className="font-mono text-sm">{payment.storeId}</span>
              </Field>
            </dl>
          </section>
          <section aria-labelledby="failed-attempts" className="rounded-2xl border border-slate-200 bg-white shadow-xs">
            <h2 id="failed-attempts" className="border-b border-slate-200 px-5 py-4 text-lg font-semibold text-slate-900">
              Failed Attempts
            </h2>
            {payment.paymentErrors.length === 0 ? (
              <p className="px-5 py-8 text-center text-slate-600">{paymentMessages.noFailedAttempt}</p>
            ) : (
              <>
                <ul aria-label="Failed attempts" className="divide-y divide-slate-100 md:hidden">
                  {[...payment.paymentErrors].reverse().map((attempt) => (
                    <li key={`${attempt.errorAt}-${attempt.errorMessage}`} className="space-y-1 px-5 py-3 text-sm">
                      <p className="font-medium text-danger-700">{attempt.errorMessage}</p>
                      <p>
                        <PaymentMethodMark brand={attempt.errorSource.brand} />
                        <span className="ml-2 font-mono text-xs text-slate-700">{attempt.errorSource.number}</span>
                      </p>
                      <p className="text-slate-700">{formatDateTime(attempt.errorAt)}</p>
                    </li>
                  ))}
                </ul>
                <div className="hidden overflow-x-auto md:block">
                  <table className="w-full text-left text-sm">
                    <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                      <tr>
                        <th scope="col" className="px-5 py-3">Reason</th>
                        <th scope="col" className="px-5 py-3">Source</th>
                        <th scope="col" className="px-5 py-3">Date</th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {[...payment.paymentErrors].reverse().map((attempt) => (
                        <tr key={`${attempt.errorAt}-${attempt.errorMessage}`}>
                          <td className="px-5 py-3 font-medium text-danger-700">{attempt.errorMessage}</td>
                          <td className="px-5 py-3">
                            <PaymentMethodMark brand={attempt.errorSource.brand} />
                            <span className="ml-2 font-mono text-xs text-slate-700">{attempt.errorSource.number}</span>
                          </td>
                          <td className="px-5 py-3 whitespace-nowrap text-slate-700">{formatDateTime(attempt.errorAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            )}
          </section>
        </div>
      )}
    </>
  );
}

import { asCurrency, formatDateTime, paymentMessages, refundMessages, type PaymentView } from '@kestrel/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { errorMessage } from '../../../lib/http.ts';
import { usePayment } from '../api.ts';
import { Field, PaymentMethodMark, PaymentStatusBadge, RefundStateBadge } from '../components/PaymentBits.tsx';
import { RefundForm, refundTargetOfPayment } from '../components/RefundForm.tsx';
import { RefundsList } from '../components/RefundsList.tsx';

/** A successful payment with something left to refund; only its owner can see this page. */
const isRefundable = (payment: PaymentView) => payment.paymentStatus === 'success' && payment.amountRefundable > 0;

/**
 * /payment/details/{paymentId}: every field of one payment, its refunds (issue 23) and its
 * failed attempts. The owner refunds from here: "Refund" opens the form in place of the button.
 */
export function PaymentDetailsPage() {
  const { paymentId = '' } = useParams();
  const { data: payment, error, isPending } = usePayment(paymentId);
  const [refunding, setRefunding] = useState(false);
  return (
    <>
      <PageTitle title="Payment details" />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Payment details</h1>
        {payment && isRefundable(payment) && !refunding && (
          <Button variant="secondary" onClick={() => setRefunding(true)}>
            {refundMessages.refundButton}
          </Button>
        )}
      </div>
      {isPending ? (
        <div role="status" aria-label="Loading the payment" className="h-64 animate-pulse rounded-2xl bg-slate-200/70" />
      ) : error || !payment ? (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(error, 'No details found!')}
        </p>
      ) : (
        <div className="space-y-6">
          {refunding && isRefundable(payment) && <RefundForm payment={refundTargetOfPayment(payment)} onClose={() => setRefunding(false)} />}
          <section aria-label="Payment" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
            <dl className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              <Field label="Status">
                <span className="flex flex-wrap items-center gap-2">
                  <PaymentStatusBadge payment={payment} />
                  <RefundStateBadge payment={payment} />
                </span>
              </Field>
              <Field label="Payment type">{payment.paymentSourceType ?? '—'}</Field>
              <Field label="Payment ID">
                <span className="font-mono text-sm">{payment.paymentId}</span>
              </Field>
              <Field label="Amount">
                <span className="font-semibold tabular-nums">{formatApiMoney(payment.amount, asCurrency(payment.currency))}</span>
              </Field>
              <Field label="Fee">{payment.fee ? `${formatApiMoney(payment.fee.amount, asCurrency(payment.fee.currency))} (${payment.fee.currency})` : '—'}</Field>
              {payment.paymentStatus === 'success' && (
                <Field label="Refunded">
                  <span className="tabular-nums">{formatApiMoney(payment.amountRefunded, asCurrency(payment.currency))}</span>
                  <span className="ml-2 text-sm text-slate-600">({formatApiMoney(payment.amountRefundable, asCurrency(payment.currency))} left)</span>
                </Field>
              )}
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
          {(payment.paymentStatus === 'success' || payment.refunds.length > 0) && (
            <section aria-labelledby="refunds" className="rounded-2xl border border-slate-200 bg-white shadow-xs">
              <h2 id="refunds" className="border-b border-slate-200 px-5 py-4 text-lg font-semibold text-slate-900">
                {refundMessages.refundsTitle}
              </h2>
              <RefundsList refunds={payment.refunds} />
            </section>
          )}
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

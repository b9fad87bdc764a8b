import { asCurrency, formatDateTime, paymentRequestMessages as m, type LinkPaymentView, type PaymentRequestView } from '@kestrel/shared';
import { useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import type { IconProps } from '../../../components/icons.tsx';
import { ExportCsv } from '../../../components/ExportCsv.tsx';
import { segment } from '../../../lib/http.ts';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { Field, PaymentMethodMark, RefundStateBadge } from '../../payments/components/PaymentBits.tsx';
import { RefundForm, refundTargetOfLinkPayment } from '../../payments/components/RefundForm.tsx';
import { BackLink } from '../../transfers/components/BackLink.tsx';
import { usePaymentRequest, usePaymentRequestPayments, useUpdatePaymentRequestLimit, useUpdatePaymentRequestStatus } from '../api.ts';
import { copyLink } from '../components/copy-link.ts';
import { LinkQrCode } from '../components/LinkQrCode.tsx';
import { linkAmountText, PaymentRequestStatusBadge, remainingLimitText } from '../components/PaymentRequestBits.tsx';

type HistoryTab = 'successed' | 'failed';
const historyTabs = [
  { key: 'successed', label: 'Successed' },
  { key: 'failed', label: 'Failed' },
] as const;

const orNA = (value: string | null) => (value ? value : m.notAvailable);

const PencilIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
    <path d="M16.9 3.6a2.1 2.1 0 013 3L8.5 18l-4 1 1-4L16.9 3.6z" />
  </svg>
);

function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 ${className}`}>
      <h2 className="mb-4 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** The active switch: the shown state is the server's, so it changes only when the change is accepted. */
function StatusSwitch({ link }: { link: PaymentRequestView }) {
  const update = useUpdatePaymentRequestStatus(link._id);
  const active = link.status === 'active';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={active}
      aria-label="Active"
      disabled={update.isPending}
      onClick={() => update.mutate(active ? 'inactive' : 'active', { onError: () => toast.error(m.statusUpdateFailed) })}
      className="inline-flex items-center gap-3 rounded-full text-sm font-semibold text-slate-900 disabled:opacity-60"
    >
      <span className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors ${active ? 'bg-success-700' : 'bg-slate-300'}`}>
        <span className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${active ? 'translate-x-6' : 'translate-x-1'}`} />
      </span>
      <span aria-hidden="true">{active ? 'Active' : 'Inactive'}</span>
    </button>
  );
}

/** Remaining limit with its edit icon: a number input (0 or more, 'Enter limit') that saves the new count. */
function RemainingLimit({ link }: { link: PaymentRequestView }) {
  const update = useUpdatePaymentRequestLimit(link._id);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d+$/.test(value.trim())) {
      setError(m.limitInvalid);
      return;
    }
    const useLimit = Number(value.trim());
    // A link without a limit gets one turned on with its count (section 4); otherwise only the count changes.
    update.mutate(link.isUseLimit ? { useLimit } : { isUseLimit: true, useLimit }, {
      onSuccess: () => {
        toast.success(m.limitUpdated);
        setEditing(false);
      },
      onError: () => toast.error(m.limitUpdateFailed),
    });
  };

  if (!editing)
    return (
      <span className="inline-flex items-center gap-2">
        <span data-testid="remaining-limit">{remainingLimitText(link)}</span>
        <button
          type="button"
          aria-label="Edit remaining limit"
          onClick={() => {
            setValue(link.isUseLimit && link.useLimit !== null ? String(link.useLimit) : '');
            setError(undefined);
            setEditing(true);
          }}
          className="rounded-md p-1 text-brand-700 hover:bg-brand-50 hover:text-brand-900"
        >
          <PencilIcon className="size-4" />
        </button>
      </span>
    );
  return (
    <form onSubmit={save} noValidate className="flex flex-wrap items-start gap-2">
      <div>
        <input
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          placeholder={m.limitPlaceholder}
          aria-label="Remaining limit"
          aria-invalid={error ? true : undefined}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(undefined);
          }}
          autoFocus
          className={`h-10 w-32 rounded-lg border px-3 text-sm shadow-xs focus:ring-1 focus-visible:outline-none ${
            error ? 'border-danger-600 focus:ring-danger-600' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-600'
          }`}
        />
        {error && <p className="mt-1 text-sm font-medium text-danger-700">{error}</p>}
      </div>
      <Button type="submit" loading={update.isPending}>
        Save
      </Button>
      <Button variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}

/** A link payment's source: the card brand and masked number, or the payer's Kestrel wallet. */
function Source({ brand, type, number }: { brand: string | null; type: string | null; number: string | null }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <PaymentMethodMark brand={type === 'wallet' ? 'Kestrel' : brand} />
      {number && <span className="font-mono text-xs text-slate-700">{number}</span>}
    </span>
  );
}

/** A link payment's amount, its refund state and, while something is left to refund, its Refund button (issue 23). */
function AmountAndRefund({ payment, onRefund }: { payment: LinkPaymentView; onRefund: (payment: LinkPaymentView) => void }) {
  const amount = formatApiMoney(payment.amount, asCurrency(payment.currency));
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className="font-semibold text-slate-900 tabular-nums">{amount}</span>
      <RefundStateBadge payment={payment} />
      {payment.amountRefundable > 0 && (
        <Button variant="ghost" aria-label={`Refund ${amount} of ${formatDateTime(payment.createdAt)}`} onClick={() => onRefund(payment)}>
          Refund
        </Button>
      )}
    </span>
  );
}

function SuccessfulPayments({ paymentRequestId, accountNumber }: { paymentRequestId: string; accountNumber: string }) {
  const payments = usePaymentRequestPayments(paymentRequestId);
  const [refunding, setRefunding] = useState<LinkPaymentView | null>(null);
  if (payments.isPending) return <div role="status" aria-label="Loading payments" className="h-24 animate-pulse rounded-xl bg-slate-200/70" />;
  const list: readonly LinkPaymentView[] = payments.data ?? [];
  if (list.length === 0) return <p className="py-8 text-center text-slate-600">{m.noSuccessful}</p>;
  return (
    <>
      {refunding && (
        <div className="mb-4">
          <RefundForm key={refunding.id} payment={refundTargetOfLinkPayment(refunding, accountNumber)} onClose={() => setRefunding(null)} />
        </div>
      )}
      <div className="mb-3 flex justify-end">
        <ExportCsv path={`/v1/export/payment-request/${segment(paymentRequestId)}/payments`} filename={`payment-request-${paymentRequestId}-payments.csv`} what="this request's payments" />
      </div>
      <ul aria-label="Successful payments" className="divide-y divide-slate-100 md:hidden">
        {list.map((payment) => (
          <li key={payment.id} className="space-y-1 py-3 text-sm">
            <p className="text-base">
              <AmountAndRefund payment={payment} onRefund={setRefunding} />
            </p>
            <Source {...payment.source} />
            <p className="font-mono text-xs break-all text-slate-700">{payment.transactionId}</p>
            <p className="text-slate-700">{formatDateTime(payment.createdAt)}</p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Successful payments, newest first</caption>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Amount</th>
              <th scope="col" className="px-4 py-3">Source</th>
              <th scope="col" className="px-4 py-3">Transaction ID</th>
              <th scope="col" className="px-4 py-3">Date</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.map((payment) => (
              <tr key={payment.id}>
                <td className="px-4 py-3 whitespace-nowrap">
                  <AmountAndRefund payment={payment} onRefund={setRefunding} />
                </td>
                <td className="px-4 py-3">
                  <Source {...payment.source} />
                </td>
                <td className="px-4 py-3 font-mono text-xs text-slate-700">{payment.transactionId}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(payment.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function FailedAttempts({ link }: { link: PaymentRequestView }) {
  const attempts = [...link.paymentErrors].sort((a, b) => Date.parse(b.errorAt) - Date.parse(a.errorAt));
  if (attempts.length === 0) return <p className="py-8 text-center text-slate-600">{m.noFailed}</p>;
  return (
    <>
      <ul aria-label="Failed attempts" className="divide-y divide-slate-100 md:hidden">
        {attempts.map((attempt, index) => (
          <li key={`${attempt.errorAt}-${index}`} className="space-y-1 py-3 text-sm">
            <p className="font-medium text-danger-700">{attempt.errorMessage}</p>
            <Source {...attempt.errorSource} />
            <p className="text-slate-700">{formatDateTime(attempt.errorAt)}</p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Failed attempts, newest first</caption>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Failed Reason</th>
              <th scope="col" className="px-4 py-3">Source</th>
              <th scope="col" className="px-4 py-3">Date</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {attempts.map((attempt, index) => (
              <tr key={`${attempt.errorAt}-${index}`}>
                <td className="px-4 py-3 font-medium text-danger-700">{attempt.errorMessage}</td>
                <td className="px-4 py-3">
                  <Source {...attempt.errorSource} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(attempt.errorAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Details({ link }: { link: PaymentRequestView }) {
  const [tab, setTab] = useState<HistoryTab>('successed');
  const currency = asCurrency(link.amount.currency);
  const custom = link.amount.type === 'customer-choosen';
  return (
    <div className="space-y-6">
      <section aria-label="Payment link" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
        <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
          <div className="min-w-0 flex-1 space-y-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <PaymentRequestStatusBadge status={link.status} />
              <StatusSwitch link={link} />
            </div>
            <div>
              <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">Payment link</p>
              <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
                <a
                  href={link.pRequestURL}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="payment-link"
                  className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2.5 font-mono text-sm break-all text-brand-800 hover:underline"
                >
                  {link.pRequestURL}
                </a>
                <Button variant="secondary" onClick={() => void copyLink(link.pRequestURL)}>
                  Copy link
                </Button>
              </div>
            </div>
            {link.expiresAt && (
              <p className="text-sm text-slate-600">
                Takes payments until {formatDateTime(link.expiresAt)}
              </p>
            )}
          </div>
          <LinkQrCode url={link.pRequestURL} fileName={`kestrel-payment-link-${link.pRequestURLId}.svg`} />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Payment details">
          <dl className="grid gap-5 sm:grid-cols-2">
            <Field label={custom ? 'Amount' : 'Fixed amount'}>
              <span className="font-semibold tabular-nums">{linkAmountText(link)}</span>
            </Field>
            {custom && link.minimumAmount !== null && link.maximumAmount !== null && (
              <>
                <Field label="Minimum amount">
                  <span className="tabular-nums">{formatApiMoney(link.minimumAmount, currency)}</span>
                </Field>
                <Field label="Maximum amount">
                  <span className="tabular-nums">{formatApiMoney(link.maximumAmount, currency)}</span>
                </Field>
              </>
            )}
            <Field label="Purpose">{link.paymentPurpose}</Field>
            <Field label="Reference">{link.reference}</Field>
            <Field label="Remaining limit">
              <RemainingLimit link={link} />
            </Field>
            <Field label="Transactions">
              <span className="tabular-nums" data-testid="transaction-count">
                {link.transactions}
              </span>
            </Field>
            <Field label="Payment methods">{link.paymentMethods.join(', ')}</Field>
          </dl>
        </Panel>
        <Panel title="Customer information">
          <dl className="grid gap-5 sm:grid-cols-2">
            <Field label="Name">{orNA(link.customerName)}</Field>
            <Field label="Email">{orNA(link.customerEmail)}</Field>
            <Field label="Phone">{orNA(link.customerPhone)}</Field>
          </dl>
        </Panel>
      </div>

      <section aria-label="Transactions" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
        <Tabs label="Transactions" tabs={historyTabs} selected={tab} onSelect={setTab}>
          {tab === 'successed' ? <SuccessfulPayments paymentRequestId={link._id} accountNumber={link.accountNumber} /> : <FailedAttempts link={link} />}
        </Tabs>
      </section>
    </div>
  );
}

/** /payment-request/details/{paymentRequestId}: one link, its switch, limit, QR code and payments. */
export function PaymentRequestDetailsPage() {
  const { paymentRequestId = '' } = useParams();
  const link = usePaymentRequest(paymentRequestId);
  return (
    <>
      <PageTitle title="Payment request details" />
      <BackLink to="/payment-request">Payment requests</BackLink>
      <h1 className="mt-2 mb-6 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{link.data?.paymentPurpose ?? 'Payment request details'}</h1>
      {link.isPending ? (
        <div role="status" aria-label="Loading the payment request" className="h-64 animate-pulse rounded-2xl bg-slate-200/70" />
      ) : link.isError ? (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {m.noDetails}
        </p>
      ) : (
        <Details link={link.data} />
      )}
    </>
  );
}

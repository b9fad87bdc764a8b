import { asCurrency, centsToDecimalString, formatMoney, operatorRefundBody, REFUND_REASON_MAX_CHARS, refundMessages, refundStateLabels, type OperatorPaymentView } from '@kestrel/shared';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { apiCents } from '../../../lib/money.ts';
import { RefundsList } from '../../payments/components/RefundsList.tsx';
import { useOperatorRefund, useOpsPayment } from '../api.ts';
import { Facts, money, OpsHeading, Panel, QueryState, StatusBadge, when, withToast } from '../components/ui.tsx';

const field = 'h-10 w-full rounded-lg border border-slate-300 px-3 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700';

/**
 * /ops/payments and /ops/payments/:paymentId (issue 23): an operator finds a payment (gateway
 * or payment link) by the ID the customer or the merchant reads out, sees its refunds, and
 * refunds it on the customer's behalf with a reason that goes into the audit trail.
 */
export function PaymentsPage() {
  const { paymentId = '' } = useParams();
  const payment = useOpsPayment(paymentId);
  return (
    <>
      <OpsHeading title="Payments" />
      <FindPayment current={paymentId} />
      {paymentId ? (
        <QueryState isPending={payment.isPending} error={payment.error}>
          {payment.data ? <PaymentPanels payment={payment.data} /> : null}
        </QueryState>
      ) : (
        <p className="text-sm text-slate-600">Enter the payment ID the customer or the merchant reads from the payment&rsquo;s details or receipt.</p>
      )}
    </>
  );
}

function FindPayment({ current }: { current: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [value, setValue] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) void navigate(`/ops/payments/${encodeURIComponent(value.trim())}`);
  };
  return (
    <form role="search" aria-label="Find a payment" onSubmit={submit} className="mb-5 flex max-w-2xl flex-wrap items-end gap-2" noValidate>
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
          Payment ID
        </label>
        <input id={id} value={value} onChange={(event) => setValue(event.target.value)} autoComplete="off" spellCheck={false} className={`${field} font-mono`} />
      </div>
      <Button type="submit">Find</Button>
    </form>
  );
}

function PaymentPanels({ payment }: { payment: OperatorPaymentView }) {
  const refundable = payment.paymentStatus === 'success' && payment.amountRefundable > 0;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Panel title="Payment">
        <Facts
          rows={[
            ['Payment ID', <span key="id" className="font-mono break-all">{payment.paymentId}</span>],
            ['Kind', payment.kind === 'gateway' ? 'Gateway payment' : 'Payment link'],
            ['Store', payment.storeName ?? '—'],
            ['Order ID', payment.orderId ?? '—'],
            ['Receiving account', payment.accountNumber],
            ['Amount', money(payment.amount, payment.currency)],
            ['Fee', money(payment.fee, payment.currency)],
            [
              'Status',
              <span key="status" className="inline-flex flex-wrap gap-1">
                <StatusBadge status={payment.paymentStatus} />
                {payment.refundState ? <StatusBadge status={refundStateLabels[payment.refundState]} /> : null}
              </span>,
            ],
            ['Refunded', money(payment.amountRefunded, payment.currency)],
            ['Left to refund', money(payment.amountRefundable, payment.currency)],
            ['Paid', payment.paidAt ? when(payment.paidAt) : 'Not paid'],
          ]}
        />
      </Panel>
      {refundable ? (
        <RefundPanel key={payment.amountRefundable} payment={payment} />
      ) : (
        <Panel title="Refund">
          <p className="text-sm text-slate-600">{payment.paymentStatus === 'success' ? 'This payment is fully refunded.' : 'Only a successful payment can be refunded.'}</p>
        </Panel>
      )}
      <Panel title="Refunds" className="lg:col-span-2">
        <div className="-mx-4 -mb-4">
          <RefundsList refunds={payment.refunds} />
        </div>
      </Panel>
    </div>
  );
}

/** The refund on the customer's behalf: amount (what is left unless changed) and a reason for the audit trail. */
function RefundPanel({ payment }: { payment: OperatorPaymentView }) {
  const id = useId();
  const refund = useOperatorRefund();
  const leftCents = apiCents(payment.amountRefundable);
  const left = formatMoney(leftCents, asCurrency(payment.currency));
  const [amount, setAmount] = useState(centsToDecimalString(leftCents));
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<{ amount?: string | undefined; reason?: string | undefined }>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = operatorRefundBody.safeParse({ amount: amount.trim() || undefined, reason });
    const next: typeof problems = {};
    for (const issue of parsed.error?.issues ?? []) {
      const name = issue.path[0];
      if (name === 'amount' || name === 'reason') next[name] ??= issue.message;
    }
    if (parsed.success && parsed.data.amount !== undefined && parsed.data.amount > leftCents) next.amount = refundMessages.exceedsRemaining(left);
    setProblems(next);
    if (!parsed.success || next.amount) return;
    try {
      await withToast(
        refund.mutateAsync({ paymentId: payment.paymentId, ...(amount.trim() ? { amount: amount.trim() } : {}), reason: reason.trim() }),
        (answer) => answer.message ?? refundMessages.created,
        'Refund failed!',
      );
      setReason('');
    } catch {
      // Toasted; the form keeps its values so the same request (same key) can be sent again.
    }
  };
  const describedBy = (name: 'amount' | 'reason', hint?: string) => [hint, problems[name] ? `${id}-${name}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <Panel title="Refund on the customer's behalf">
      <form onSubmit={(event) => void submit(event)} aria-label="Refund on the customer's behalf" className="space-y-3" noValidate>
        <div>
          <label htmlFor={`${id}-amount`} className="mb-1 block text-sm font-medium text-slate-700">
            Amount
          </label>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={problems.amount ? true : undefined}
            aria-describedby={describedBy('amount', `${id}-amount-hint`)}
            className={field}
          />
          <p id={`${id}-amount-hint`} className="mt-1 text-sm text-slate-600">
            Left to refund: {left}. Empty refunds all of it.
          </p>
          {problems.amount ? (
            <p id={`${id}-amount-error`} className="mt-1 text-sm text-danger-700">
              {problems.amount}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium text-slate-700">
            Reason
          </label>
          <input
            id={`${id}-reason`}
            value={reason}
            maxLength={REFUND_REASON_MAX_CHARS}
            placeholder="Kept in the audit log"
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={problems.reason ? true : undefined}
            aria-describedby={describedBy('reason')}
            className={field}
          />
          {problems.reason ? (
            <p id={`${id}-reason-error`} className="mt-1 text-sm text-danger-700">
              {problems.reason}
            </p>
          ) : null}
        </div>
        <Button type="submit" variant="danger" loading={refund.isPending}>
          Refund
        </Button>
      </form>
    </Panel>
  );
}

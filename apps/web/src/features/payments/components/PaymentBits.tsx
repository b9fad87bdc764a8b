import { refundStateLabels, type PaymentView, type RefundStatus } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { WalletIcon } from '../../../components/icons.tsx';

/** One labelled value of a details page's list (a payment's, a payment link's). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The spec's colours: success green, initiate yellow; a payment whose attempts all failed is red. */
export function PaymentStatusBadge({ payment }: { payment: Pick<PaymentView, 'paymentStatus' | 'paymentErrors'> }) {
  const failed = payment.paymentStatus !== 'success' && payment.paymentErrors.length > 0;
  const [label, tone] =
    payment.paymentStatus === 'success'
      ? ['success', 'bg-success-50 text-success-700 ring-success-600/20']
      : failed
        ? ['failed', 'bg-danger-50 text-danger-700 ring-danger-600/20']
        : [payment.paymentStatus, 'bg-amber-50 text-amber-800 ring-amber-600/30'];
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>{label}</span>;
}

/** "Refunded" or "Partially refunded" beside a successful payment's status (paymentStatus stays success); nothing before a refund. */
export function RefundStateBadge({ payment }: { payment: Pick<PaymentView, 'refundState'> }) {
  if (!payment.refundState) return null;
  const tone = payment.refundState === 'refunded' ? 'bg-sky-50 text-sky-800 ring-sky-600/30' : 'bg-violet-50 text-violet-800 ring-violet-600/30';
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>{refundStateLabels[payment.refundState]}</span>;
}

const refundStatusTones: Record<RefundStatus, string> = {
  succeeded: 'bg-success-50 text-success-700 ring-success-600/20',
  processing: 'bg-amber-50 text-amber-800 ring-amber-600/30',
  failed: 'bg-danger-50 text-danger-700 ring-danger-600/20',
};

/** One refund's status: succeeded green, processing (a card refund waiting for the processor) yellow, failed red. */
export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${refundStatusTones[status]}`}>{status}</span>;
}

/** The card brand (visa, masterCard) or the wallet, as a small mark with a text name. */
export function PaymentMethodMark({ brand }: { brand: string | null | undefined }) {
  if (brand === 'visa')
    return (
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="rounded bg-[#1a1f71] px-1.5 py-0.5 text-[10px] font-black tracking-wider text-white italic">
          VISA
        </span>
        <span className="sr-only">visa</span>
      </span>
    );
  if (brand === 'masterCard')
    return (
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="relative inline-flex h-4 w-7">
          <span className="absolute left-0 size-4 rounded-full bg-[#eb001b]" />
          <span className="absolute right-0 size-4 rounded-full bg-[#f79e1b]/90" />
        </span>
        <span className="text-xs font-medium text-slate-700">masterCard</span>
      </span>
    );
  if (!brand) return <span className="text-slate-500">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      <WalletIcon className="size-4 text-brand-700" aria-hidden="true" />
      <span className="text-xs font-medium text-slate-700">{brand}</span>
    </span>
  );
}

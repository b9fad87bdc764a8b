import { asCurrency, formatDateTime, refundMessages, type RefundInitiator, type RefundView } from '@kestrel/shared';
import { formatApiMoney } from '../../../lib/money.ts';
import { RefundStatusBadge } from './PaymentBits.tsx';

const initiatorLabels: Record<RefundInitiator, string> = { store: 'store API', owner: 'owner', operator: 'Kestrel support' };

const money = (amount: number, currency: string) => formatApiMoney(amount, asCurrency(currency));

function Who({ refund }: { refund: RefundView }) {
  return (
    <>
      {refund.initiatedBy.name}
      {refund.initiatedBy.name !== initiatorLabels[refund.initiatedBy.kind] && <span className="block text-xs text-slate-600">{initiatorLabels[refund.initiatedBy.kind]}</span>}
    </>
  );
}

/** Where the money went: the payer's card or wallet, masked. */
const destination = (refund: RefundView) => `To ${refund.destination.type} ${refund.destination.number}`;

/**
 * A payment's refunds, newest first (issue 23): amount and where it went, the fee returned,
 * reason, who asked, when, and status (with the processor's reason when a card refund failed).
 * A table from md up, one card per refund on phones.
 */
export function RefundsList({ refunds }: { refunds: readonly RefundView[] }) {
  if (refunds.length === 0) return <p className="px-5 py-8 text-center text-slate-600">{refundMessages.noRefunds}</p>;
  return (
    <>
      <ul aria-label="Refunds of this payment" className="divide-y divide-slate-100 md:hidden">
        {refunds.map((refund) => (
          <li key={refund.refundId} className="space-y-1 px-5 py-3 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-slate-900 tabular-nums">{money(refund.amount, refund.currency)}</span>
              <RefundStatusBadge status={refund.status} />
            </p>
            <p className="text-slate-700">{destination(refund)}</p>
            <p className="text-slate-700">Fee returned {money(refund.fee.amount, refund.fee.currency)}</p>
            {refund.reason && <p className="break-words text-slate-900">{refund.reason}</p>}
            {refund.failureReason && <p className="text-danger-700">{refund.failureReason}</p>}
            <p className="text-slate-700">
              By {refund.initiatedBy.name}
              {refund.initiatedBy.name !== initiatorLabels[refund.initiatedBy.kind] && ` (${initiatorLabels[refund.initiatedBy.kind]})`} · {formatDateTime(refund.createdAt)}
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Refunds of this payment, newest first</caption>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-5 py-3">Amount</th>
              <th scope="col" className="px-5 py-3">Fee returned</th>
              <th scope="col" className="px-5 py-3">Reason</th>
              <th scope="col" className="px-5 py-3">By</th>
              <th scope="col" className="px-5 py-3">Date</th>
              <th scope="col" className="px-5 py-3">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {refunds.map((refund) => (
              <tr key={refund.refundId}>
                <td className="px-5 py-3 whitespace-nowrap">
                  <span className="font-semibold text-slate-900 tabular-nums">{money(refund.amount, refund.currency)}</span>
                  <span className="block font-mono text-xs text-slate-600">{destination(refund)}</span>
                </td>
                <td className="px-5 py-3 whitespace-nowrap text-slate-800 tabular-nums">{money(refund.fee.amount, refund.fee.currency)}</td>
                <td className="max-w-[16rem] px-5 py-3 break-words text-slate-800">{refund.reason ?? '—'}</td>
                <td className="px-5 py-3 text-slate-800">
                  <Who refund={refund} />
                </td>
                <td className="px-5 py-3 whitespace-nowrap text-slate-700">{formatDateTime(refund.createdAt)}</td>
                <td className="px-5 py-3">
                  <RefundStatusBadge status={refund.status} />
                  {refund.failureReason && <span className="mt-1 block text-xs text-danger-700">{refund.failureReason}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

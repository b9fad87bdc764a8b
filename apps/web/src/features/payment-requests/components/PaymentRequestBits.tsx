import { asCurrency, paymentRequestMessages as m, type PaymentRequestView } from '@kestrel/shared';
import { formatApiMoney } from '../../../lib/money.ts';

/** Active green, Disable grey (the list's Status column). */
export function PaymentRequestStatusBadge({ status }: { status: PaymentRequestView['status'] }) {
  const active = status === 'active';
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        active ? 'bg-success-50 text-success-700 ring-success-700/20' : 'bg-slate-100 text-slate-700 ring-slate-500/20'
      }`}
    >
      {active ? m.statusActive : m.statusDisabled}
    </span>
  );
}

/** The fixed amount with its currency ('US$ 12.00'), or 'Custom'. */
export function linkAmountText(link: Pick<PaymentRequestView, 'amount'>): string {
  return link.amount.type === 'fixed' && link.amount.value !== null ? formatApiMoney(link.amount.value, asCurrency(link.amount.currency)) : m.amountCustom;
}

/** '{n} Times', or 'Un-limited' for a link without a use limit. */
export function remainingLimitText(link: Pick<PaymentRequestView, 'isUseLimit' | 'useLimit'>): string {
  return link.isUseLimit && link.useLimit !== null ? m.remainingTimes(link.useLimit) : m.unlimited;
}

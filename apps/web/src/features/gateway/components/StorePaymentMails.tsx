import { storeMessages, type StoreView } from '@kestrel/shared';
import { useId } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../lib/http.ts';
import { useStorePaymentMails } from '../api.ts';

/**
 * The store page's "Payment e-mails" switch: whether the store's account is told of each
 * payment ("You got paid", by e-mail or SMS as the account prefers). The shown state is the
 * server's, so it changes only when the change is accepted. The customer's receipt is sent
 * either way.
 */
export function StorePaymentMails({ store }: { store: StoreView }) {
  const id = useId();
  const update = useStorePaymentMails(store.storeId);
  const on = store.notifyOnPayment;
  const toggle = () =>
    update.mutate(!on, {
      onSuccess: (answer) => toast.success(answer.message ?? (answer.data.notifyOnPayment ? storeMessages.paymentMailsOn : storeMessages.paymentMailsOff)),
      onError: (error) => toast.error(errorMessage(error, 'Could not change the payment e-mails')),
    });
  return (
    <div className="mt-5 flex flex-wrap items-start justify-between gap-3 border-t border-slate-200 pt-4">
      <div className="min-w-0 flex-1">
        <p id={`${id}-label`} className="text-sm font-medium text-slate-900">
          Payment e-mails
        </p>
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          Tell this account each time the store is paid (&ldquo;You got paid&rdquo;, by e-mail or SMS as the account prefers). Customers get their receipt either way.
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        disabled={update.isPending}
        onClick={toggle}
        className="inline-flex items-center gap-3 rounded-full text-sm font-semibold text-slate-900 disabled:opacity-60"
      >
        <span className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors ${on ? 'bg-success-700' : 'bg-slate-400'}`}>
          <span className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`} />
        </span>
        <span aria-hidden="true">{on ? 'On' : 'Off'}</span>
      </button>
    </div>
  );
}

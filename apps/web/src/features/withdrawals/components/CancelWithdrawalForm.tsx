import { messages, withdrawMessages } from '@kestrel/shared';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { useCancelWithdrawal } from '../api.ts';

const failedMessage = 'The withdrawal could not be cancelled.';
/** An answer that never came may hide a cancel that went through; asking again is safe (same Idempotency-Key). */
const unsureMessage = 'The withdrawal could not be cancelled. Trying again is safe: the money comes back once.';

/** A Pending withdrawal's cancel: the TPIN, as for asking for it; the held money comes back to the wallet. */
export function CancelWithdrawalForm({ withdrawalId }: { withdrawalId: string }) {
  const cancel = useCancelWithdrawal(withdrawalId);
  const [tpin, setTpin] = useState('');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (cancel.isPending) return;
    const problem = !tpin ? messages.tpin.required : /^\d{4}$/.test(tpin) ? undefined : messages.tpin.fourDigits;
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    toast.dismiss();
    cancel.mutate(
      { tpin },
      {
        onSuccess: () => toast.success(withdrawMessages.cancelled),
        onError: (failure) => {
          const unsure = !(failure instanceof ApiError) || failure.status === 0 || failure.status >= 500;
          toast.error(unsure ? unsureMessage : errorMessage(failure, failedMessage));
          if (failure instanceof ApiError && (failure.code === 'tpin_incorrect' || failure.status === 423)) {
            setTpin('');
            input.current?.focus();
          }
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Cancel withdrawal" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Cancel this withdrawal</h2>
        <p className="mt-1 text-sm text-slate-600">It has not been sent yet. Cancelling puts the held amount back in your wallet at once.</p>
      </div>
      <FloatingField
        ref={input}
        label="TPIN"
        type="password"
        inputMode="numeric"
        maxLength={4}
        autoComplete="off"
        className="max-w-xs"
        value={tpin}
        error={error}
        onChange={(event) => setTpin(event.target.value)}
      />
      <Button type="submit" variant="danger" loading={cancel.isPending}>
        Cancel withdrawal
      </Button>
    </form>
  );
}

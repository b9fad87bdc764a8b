import { formatDateTime, STORE_KEY_GRACE_HOURS, storeMessages, type StoreView } from '@kestrel/shared';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useRotateStoreKey } from '../api.ts';
import { CopyField } from './StoreBits.tsx';

/**
 * The store page's key rotation: the account's TPIN gives a new storeKey at once; the key it
 * replaces keeps working for STORE_KEY_GRACE_HOURS (shown with its expiry) so the shop can
 * switch without failed payments.
 */
export function StoreKeyRotation({ store }: { store: StoreView }) {
  const id = useId();
  const rotate = useRotateStoreKey(store.storeId);
  const [tpin, setTpin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!tpin.trim()) return setProblem(storeMessages.tpinRequired);
    if (!/^\d{4}$/.test(tpin.trim())) return setProblem(storeMessages.tpinDigits);
    setProblem(null);
    try {
      const answer = await rotate.mutateAsync(tpin.trim());
      toast.success(answer.message ?? storeMessages.keyRotated);
      setTpin('');
    } catch (error) {
      setProblem(errorMessage(error, 'Could not rotate the key'));
    }
  };
  return (
    <div className="mt-5 border-t border-slate-200 pt-4">
      {store.previousStoreKey && store.previousStoreKeyExpiresAt ? (
        <dl className="mb-4">
          <CopyField label={`Previous store key (expires at ${formatDateTime(store.previousStoreKeyExpiresAt)})`} value={store.previousStoreKey} secret />
        </dl>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className="block text-sm font-medium text-slate-700">
            TPIN to rotate the store key
          </label>
          <input
            id={id}
            value={tpin}
            onChange={(event) => setTpin(event.target.value)}
            inputMode="numeric"
            autoComplete="off"
            type="password"
            maxLength={4}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
            className="mt-1 h-10 w-32 rounded-lg border border-slate-300 px-3 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
          />
        </div>
        <Button type="submit" variant="secondary" loading={rotate.isPending}>
          Rotate key
        </Button>
        <p id={`${id}-hint`} className="w-full text-sm text-slate-600">
          A new key works at once; the current one keeps working for {STORE_KEY_GRACE_HOURS} hours, then is refused. Callbacks are signed with the newest key.
        </p>
        {problem ? (
          <p id={`${id}-error`} role="alert" className="w-full text-sm text-danger-700">
            {problem}
          </p>
        ) : null}
      </form>
    </div>
  );
}

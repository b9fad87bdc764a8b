import { BALANCE_CLICK_DEBOUNCE_MS, BALANCE_VISIBLE_MS, messages, uiText } from '@kestrel/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { EyeIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { formatApiMoney } from '../../../lib/money.ts';
import { useSession } from '../../../lib/session.ts';
import { accountKeys, fetchAccount, type Balance } from '../api.ts';

/** An account always has its USD balance; should the list come back empty, it reads as zero. */
const emptyBalance: Balance = { currency: 'USD', amount: 0 };

interface Revealed {
  accountNumber: string;
  balance: Balance[];
}

/**
 * The header's 'View Balance' button. A click reads the active account's balance afresh
 * and shows every currency as "5,000.00 USD" for 5 seconds, then 'View Balance' again.
 * Clicks within 500 ms of the previous one are ignored. Screen readers hear the balance
 * through a live region.
 */
export function ViewBalanceButton() {
  const { accountNumber } = useSession();
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [loading, setLoading] = useState(false);
  const lastClickAt = useRef(Number.NEGATIVE_INFINITY);
  const hideTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(hideTimer.current), []);

  const onClick = async () => {
    const now = performance.now();
    const sincePrevious = now - lastClickAt.current;
    lastClickAt.current = now;
    if (sincePrevious < BALANCE_CLICK_DEBOUNCE_MS || loading) return;
    if (!accountNumber) {
      toast.error(messages.portal.accountNotAvailable);
      return;
    }
    setLoading(true);
    try {
      // Always the current balance: a transfer may have changed it since the last look.
      const account = await queryClient.fetchQuery({
        queryKey: accountKeys.detail(accountNumber),
        queryFn: ({ signal }) => fetchAccount(accountNumber, signal),
        staleTime: 0,
        retry: false,
      });
      setRevealed({ accountNumber, balance: account.balance });
      window.clearTimeout(hideTimer.current);
      hideTimer.current = window.setTimeout(() => setRevealed(null), BALANCE_VISIBLE_MS);
    } catch (error) {
      toast.error(errorMessage(error, messages.portal.accountNotAvailable));
    } finally {
      setLoading(false);
    }
  };

  // A balance revealed for another account (switched meanwhile) is not shown.
  const shown = revealed && revealed.accountNumber === accountNumber ? revealed.balance : null;
  const text = shown ? (shown.length > 0 ? shown : [emptyBalance]).map((balance) => formatApiMoney(balance.amount, balance.currency, 'code')).join(' · ') : uiText.portal.viewBalance;

  return (
    <>
      <button
        type="button"
        onClick={() => void onClick()}
        aria-busy={loading || undefined}
        className={`inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-semibold whitespace-nowrap tabular-nums transition-colors ${
          shown
            ? 'border-brand-700 bg-brand-700 text-white hover:bg-brand-800'
            : 'border-brand-200 bg-brand-50 text-brand-800 hover:border-brand-300 hover:bg-brand-100'
        }`}
      >
        {loading ? <Spinner className="size-4" /> : <EyeIcon className="size-4" />}
        {text}
      </button>
      <span aria-live="polite" className="sr-only">
        {shown ? `Balance: ${text}` : ''}
      </span>
    </>
  );
}

import { uiText } from '@kestrel/shared';
import { EyeIcon } from '../../../components/icons.tsx';

/**
 * The header's 'View Balance' button.
 *
 * TODO(accounts issue): the reveal is not built yet. It will GET /v1/account/:accountNumber,
 * show each balance as "amount CODE" (formatAmountWithCode) for BALANCE_VISIBLE_MS, ignore
 * clicks within BALANCE_CLICK_DEBOUNCE_MS, and then read 'View Balance' again.
 */
export function ViewBalanceButton() {
  return (
    <button
      type="button"
      className="inline-flex h-9 items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 px-3 text-sm font-semibold whitespace-nowrap text-brand-800 hover:border-brand-300 hover:bg-brand-100"
    >
      <EyeIcon className="size-4" />
      {uiText.portal.viewBalance}
    </button>
  );
}

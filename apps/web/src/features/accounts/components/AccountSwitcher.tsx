import { uiText } from '@kestrel/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session.ts';
import type { AccountSummary } from '../../auth/api.ts';
import { accountDisplayName } from '../account-name.ts';

/**
 * The sidebar's account list. It shows the user's accounts and marks the active one
 * (the accountNumber cookie).
 *
 * TODO(accounts issue): choosing an account is not built yet. It will store the account's
 * number, e-mail and user name (setActiveAccount), show 'Switching account...' for
 * ACCOUNT_SWITCH_OVERLAY_MS and reload.
 */
export function AccountSwitcher({ accounts, onNavigate }: { accounts: readonly AccountSummary[]; onNavigate?: () => void }) {
  const { accountNumber } = useSession();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="px-3">
      <h2 id={titleId} className="px-2 text-xs font-semibold tracking-wider text-slate-500 uppercase">
        Accounts
      </h2>
      <ul className="mt-2 space-y-1">
        {accounts.map((account) => {
          const active = account.accountNumber === accountNumber;
          const name = accountDisplayName(account);
          return (
            <li
              key={account._id}
              aria-current={active || undefined}
              className={`flex items-center gap-3 rounded-lg px-2 py-2 ${active ? 'bg-brand-50 ring-1 ring-brand-200' : ''}`}
            >
              <span
                aria-hidden="true"
                className={`flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  active ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700'
                }`}
              >
                {name.charAt(0).toUpperCase()}
              </span>
              <span className="min-w-0">
                <span className="block truncate text-sm font-semibold text-slate-900">{name}</span>
                <span className="block truncate text-xs text-slate-600">
                  <span className="capitalize">{account.accountType}</span> · {account.accountNumber}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      <Link
        to="/new-account"
        onClick={onNavigate}
        className="mt-2 flex h-9 items-center rounded-lg px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:text-brand-900"
      >
        {uiText.portal.createNewAccount}
      </Link>
    </section>
  );
}

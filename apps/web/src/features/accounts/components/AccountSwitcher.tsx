import { ACCOUNT_SWITCH_OVERLAY_MS, messages, uiText } from '@kestrel/shared';
import { useEffect, useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { CheckCircleIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { setActiveAccount, useSession } from '../../../lib/session.ts';
import type { AccountSummary } from '../../auth/api.ts';
import { accountDisplayName } from '../account-name.ts';

/** Full-screen 'Switching account...' while the new account's cookies settle, before the reload. */
function SwitchingOverlay() {
  useEffect(() => {
    // Nothing behind the overlay may be used while the portal switches accounts.
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    return () => root?.removeAttribute('inert');
  }, []);
  return createPortal(
    <div className="fixed inset-0 z-[100] flex animate-fade-in items-center justify-center bg-slate-950/70 px-6 backdrop-blur-sm">
      <div role="status" aria-live="assertive" className="flex items-center gap-3 rounded-2xl bg-white px-6 py-5 shadow-xl">
        <Spinner className="size-6 text-brand-700" />
        <p className="text-lg font-semibold text-slate-900">{messages.portal.switchingAccount}</p>
      </div>
    </div>,
    document.body,
  );
}

/**
 * The sidebar's account list (and the mobile drawer's): personal accounts by holder
 * name, business accounts by business name, the active one (accountNumber cookie)
 * marked. Choosing another stores its number, e-mail and user name in the cookies,
 * shows 'Switching account...' for 2 seconds and reloads.
 */
export function AccountSwitcher({ accounts, onNavigate }: { accounts: readonly AccountSummary[]; onNavigate?: () => void }) {
  const { accountNumber } = useSession();
  const titleId = useId();
  const [switching, setSwitching] = useState(false);

  const choose = (account: AccountSummary) => {
    if (switching || account.accountNumber === accountNumber) return;
    setActiveAccount({ accountNumber: account.accountNumber, accountEmail: account.accountEmail, userName: account.userName });
    setSwitching(true);
    window.setTimeout(() => window.location.reload(), ACCOUNT_SWITCH_OVERLAY_MS);
  };

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
            <li key={account._id}>
              <button
                type="button"
                onClick={() => choose(account)}
                aria-current={active || undefined}
                aria-label={`${name}, ${account.accountType} account ${account.accountNumber}${active ? ', active' : ''}`}
                className={`flex w-full items-center gap-2.5 rounded-lg px-2 py-2 text-left transition-colors ${
                  active ? 'cursor-default bg-brand-50 ring-1 ring-brand-200' : 'hover:bg-slate-100'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                    active ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700'
                  }`}
                >
                  {name.charAt(0).toUpperCase()}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-semibold text-slate-900">{name}</span>
                  {/* 12-digit account numbers: the line wraps before the number rather than cutting it. */}
                  <span className="block text-xs text-slate-600">
                    <span className="capitalize">{account.accountType}</span> · <span className="whitespace-nowrap">{account.accountNumber}</span>
                  </span>
                </span>
                {active && <CheckCircleIcon className="size-4 shrink-0 text-brand-700" />}
              </button>
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
      {switching && <SwitchingOverlay />}
    </section>
  );
}

/**
 * The account list's place while the user's profile loads (the dashboard's first paint): the
 * same heading, one account's row as a grey shape, and the 'Create New Account' link.
 */
export function AccountSwitcherPlaceholder() {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} aria-busy="true" className="px-3">
      <h2 id={titleId} className="px-2 text-xs font-semibold tracking-wider text-slate-500 uppercase">
        Accounts
      </h2>
      {/* As tall as an account's row: its name, then type and number on two lines (the sidebar is narrow). */}
      <div aria-hidden="true" className="mt-2 flex items-center gap-2.5 px-2 py-2">
        <span className="size-9 shrink-0 animate-pulse rounded-full bg-slate-200" />
        <span className="flex h-13 min-w-0 flex-1 flex-col justify-center gap-2">
          <span className="block h-3.5 w-28 animate-pulse rounded bg-slate-200" />
          <span className="block h-3 w-36 animate-pulse rounded bg-slate-200" />
        </span>
      </div>
      <Link to="/new-account" className="mt-2 flex h-9 items-center rounded-lg px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:text-brand-900">
        {uiText.portal.createNewAccount}
      </Link>
    </section>
  );
}

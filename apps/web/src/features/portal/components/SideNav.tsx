import { useContext } from 'react';
import { Link, useLocation } from 'react-router';
import { AccountSwitcher, AccountSwitcherPlaceholder } from '../../accounts/components/AccountSwitcher.tsx';
import { isNavItemActive, navItems } from '../nav-items.ts';
import { PortalUserContext } from '../../../lib/portal-user.ts';

/** The links of the side navigation, with the current page marked. */
export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <ul className="space-y-0.5 px-3">
      {navItems.map((item) => {
        const active = isNavItemActive(item, pathname);
        const Icon = item.icon;
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              className={`group flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors ${
                active ? 'bg-brand-700 text-white shadow-sm' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
              }`}
            >
              <Icon className={`size-5 shrink-0 ${active ? 'text-white' : 'text-slate-500 group-hover:text-slate-700'}`} />
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * What the sidebar and the mobile drawer hold: the account switcher, then the navigation. Before
 * the user's profile has come (the dashboard's skeleton) the accounts are a placeholder.
 */
export function SideNavContent({ onNavigate }: { onNavigate?: () => void }) {
  const user = useContext(PortalUserContext);
  return (
    <div className="flex flex-col gap-6 py-5">
      {user ? <AccountSwitcher accounts={user.accounts} onNavigate={onNavigate} /> : <AccountSwitcherPlaceholder />}
      <nav aria-label="Main">
        <NavList onNavigate={onNavigate} />
      </nav>
    </div>
  );
}

import { NavLink, Outlet } from 'react-router';
import { Logo } from '../../../components/Logo.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { useCurrentUser } from '../../auth/api.ts';
import { LogoutLink } from '../../portal/components/LogoutLink.tsx';
import { NotFoundPage } from '../../portal/pages/NotFoundPage.tsx';

const sections = [
  { to: '/ops', label: 'Queues', end: true },
  { to: '/ops/approvals', label: 'Approvals' },
  { to: '/ops/stores', label: 'Stores' },
  { to: '/ops/withdrawals', label: 'Withdrawals' },
  { to: '/ops/identity', label: 'Identity reviews' },
  { to: '/ops/accounts', label: 'Accounts' },
  { to: '/ops/payments', label: 'Payments' },
  { to: '/ops/callbacks', label: 'Callbacks' },
  { to: '/ops/reconciliation', label: 'Reconciliation' },
  { to: '/ops/ledger', label: 'Ledger health' },
  { to: '/ops/audit', label: 'Audit log' },
];

/**
 * The operator console's gate and frame: its own chunk, its own layout (not the holder's
 * portal shell). Anyone who is not an operator sees 'Page Not Found', like any unknown path;
 * the API refuses them on every operator route anyway, this only keeps the pages away.
 */
export function OpsLayout() {
  const user = useCurrentUser();
  if (!user.data) return user.isError ? <NotFoundPage /> : <FullPageSpinner />;
  if (!user.data.isOperator) return <NotFoundPage />;
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
          <NavLink to="/ops" className="flex items-center gap-2 rounded focus-visible:outline-2 focus-visible:outline-brand-700">
            <Logo compact />
            <span className="text-sm font-semibold tracking-wide text-slate-700">Operations</span>
          </NavLink>
          <div className="flex items-center gap-3 text-sm">
            <span className="hidden text-slate-600 sm:inline">{user.data.email}</span>
            <LogoutLink />
          </div>
        </div>
        <nav aria-label="Console" className="mx-auto max-w-7xl overflow-x-auto px-2">
          <ul className="flex gap-1 whitespace-nowrap">
            {sections.map((section) => (
              <li key={section.to}>
                <NavLink
                  to={section.to}
                  end={section.end}
                  className={({ isActive }) =>
                    `mb-2 inline-block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-700 ${isActive ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100'}`
                  }
                >
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}

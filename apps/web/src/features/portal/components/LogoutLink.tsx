import { uiText } from '@kestrel/shared';
import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { LogoutIcon } from '../../../components/icons.tsx';
import { useLogout } from '../../auth/api.ts';

/** 'Logout': a link to /login that removes the session cookies at once and revokes the token in the background. */
export function LogoutLink({ className = '' }: { className?: string }) {
  const logout = useLogout();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    logout();
  };
  return (
    <Link
      to="/login"
      onClick={onClick}
      className={`inline-flex h-10 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900 ${className}`}
    >
      <LogoutIcon className="size-5" />
      {uiText.portal.logout}
    </Link>
  );
}

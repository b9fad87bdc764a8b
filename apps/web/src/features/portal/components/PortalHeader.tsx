import { uiText } from '@kestrel/shared';
import type { Ref } from 'react';
import { Link } from 'react-router';
import { BellIcon, HelpIcon, MenuIcon, UserIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/Logo.tsx';
import { ViewBalanceButton } from '../../accounts/components/ViewBalanceButton.tsx';
import { LogoutLink } from './LogoutLink.tsx';

const p = uiText.portal;
const iconButton =
  'flex size-10 items-center justify-center rounded-full text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900';

/** The sticky bar of the signed-in pages. */
export function PortalHeader({
  menuOpen,
  onToggleMenu,
  menuButtonRef,
  drawerId,
}: {
  menuOpen: boolean;
  onToggleMenu: () => void;
  menuButtonRef: Ref<HTMLButtonElement>;
  drawerId: string;
}) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="flex h-16 items-center gap-2 px-3 sm:gap-3 sm:px-6 lg:px-8">
        <button
          ref={menuButtonRef}
          type="button"
          onClick={onToggleMenu}
          aria-expanded={menuOpen}
          aria-controls={drawerId}
          aria-label="Menu"
          className={`${iconButton} rounded-lg lg:hidden`}
        >
          <MenuIcon className="size-6" />
        </button>
        <Link to="/dashboard" className="rounded-md">
          <Logo compact />
        </Link>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <ViewBalanceButton />
          {/* The spec shows these three on large screens only; Notifications and Help have no action yet. */}
          <div className="hidden items-center gap-1 lg:flex">
            <button type="button" aria-label={p.notifications} className={iconButton}>
              <BellIcon className="size-5" />
            </button>
            <Link to="/my-account" aria-label={p.myAccount} className={iconButton}>
              <UserIcon className="size-5" />
            </Link>
            <button type="button" aria-label={p.help} className={iconButton}>
              <HelpIcon className="size-5" />
            </button>
          </div>
          <LogoutLink className="max-sm:px-2" />
        </div>
      </div>
    </header>
  );
}

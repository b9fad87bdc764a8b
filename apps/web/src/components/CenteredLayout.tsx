import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from './Logo.tsx';

/** A logo bar and one centred column: status pages, gates, e-mail verification. */
export function CenteredLayout({ children, actions, logoTo = '/' }: { children: ReactNode; actions?: ReactNode; logoTo?: string }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
          <Link to={logoTo} className="rounded-md">
            <Logo />
          </Link>
          {actions}
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
        {children}
      </main>
    </div>
  );
}

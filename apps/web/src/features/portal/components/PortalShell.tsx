import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { MobileDrawer } from './MobileDrawer.tsx';
import { PortalHeader } from './PortalHeader.tsx';
import { SideNavContent } from './SideNav.tsx';

const drawerId = 'portal-navigation-drawer';

/**
 * The signed-in layout: sticky header, sidebar (a drawer on small screens) and the page, or
 * `children` in its place (the dashboard's skeleton while the user's profile loads).
 */
export function PortalShell({ children }: { children?: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    // Back to where the user opened it from.
    menuButtonRef.current?.focus();
  }, []);

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <PortalHeader
        menuOpen={drawerOpen}
        onToggleMenu={() => setDrawerOpen((open) => !open)}
        menuButtonRef={menuButtonRef}
        drawerId={drawerId}
      />
      <div className="flex">
        <aside
          aria-label="Sidebar"
          className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 overflow-y-auto border-r border-slate-200 bg-white lg:block"
        >
          <SideNavContent />
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8">
          {children ?? <Outlet />}
        </main>
      </div>
      <MobileDrawer id={drawerId} open={drawerOpen} onClose={closeDrawer} />
    </div>
  );
}

import { useEffect, useRef, type KeyboardEvent } from 'react';
import { CloseIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/Logo.tsx';
import { SideNavContent } from './SideNav.tsx';

const focusableSelector = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The side navigation as a drawer for small screens, over a dimmed backdrop. A click on
 * the backdrop, Escape or following a link closes it. While open it is modal: focus
 * starts on its close button and stays inside until it closes.
 */
export function MobileDrawer({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    // The page behind a modal drawer must not scroll.
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    // The drawer is for small screens; growing the window past the breakpoint closes it.
    const wide = window.matchMedia('(min-width: 64rem)');
    const onWidthChange = () => {
      if (wide.matches) onClose();
    };
    wide.addEventListener('change', onWidthChange);
    return () => {
      document.body.style.overflow = previousOverflow;
      wide.removeEventListener('change', onWidthChange);
    };
  }, [open, onClose]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(focusableSelector));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div id={id} hidden={!open} className="fixed inset-0 z-50 lg:hidden" onKeyDown={onKeyDown}>
      <div aria-hidden="true" onClick={onClose} className="absolute inset-0 animate-fade-in bg-slate-950/60" />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Navigation"
        className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] animate-slide-in flex-col overflow-y-auto bg-white shadow-xl"
      >
        <div className="flex h-16 shrink-0 items-center justify-between border-b border-slate-200 px-4">
          <Logo />
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            aria-label="Close navigation"
            className="flex size-10 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          >
            <CloseIcon className="size-6" />
          </button>
        </div>
        <SideNavContent onNavigate={onClose} />
      </div>
    </div>
  );
}

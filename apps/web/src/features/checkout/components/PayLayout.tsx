import type { ReactNode } from 'react';
import { KestrelMark } from '../../../components/Logo.tsx';

/** The bare frame of a public pay page: no portal shell, just the card and a quiet footer. */
export function PayLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-slate-50 px-4 py-8 sm:py-14">
      <main className="w-full max-w-md">{children}</main>
      <footer className="mt-8 flex print:hidden items-center gap-2 text-xs text-slate-500">
        <KestrelMark className="size-4" /> Secured by Kestrel
      </footer>
    </div>
  );
}

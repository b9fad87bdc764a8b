import type { ReactNode } from 'react';
import { PageTitle } from './PageTitle.tsx';

/** An account list page's head: the title (tab and heading), the active account under it with an optional `detail`, and the page's `actions` on the right. */
export function AccountPageHeader({ title, accountNumber, detail, actions }: { title: string; accountNumber: string | undefined; detail?: ReactNode; actions?: ReactNode }) {
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          {accountNumber && (
            <p className="mt-1 text-slate-600">
              Account <span className="tabular-nums">{accountNumber}</span>
              {detail}
            </p>
          )}
        </div>
        {actions}
      </div>
    </>
  );
}

/** Several actions of a page head side by side (one under the other on phones when they do not fit). */
export function PageActions({ children }: { children: ReactNode }) {
  return <div className="flex w-full flex-wrap items-start gap-2 sm:w-auto">{children}</div>;
}

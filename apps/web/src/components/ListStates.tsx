import type { ReactNode } from 'react';
import { errorMessage } from '../lib/http.ts';
import { Button } from './Button.tsx';

/** A list while it loads: three placeholder rows, announced by `label`. */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3">
      {[0, 1, 2].map((index) => (
        <div key={index} className="h-16 animate-pulse rounded-2xl bg-slate-200/70" />
      ))}
    </div>
  );
}

/** What a list's failed query needs to show itself again. */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/** A list that could not be loaded: the server's message (else `fallback`) and a way to try again. */
export function ListLoadError({ query, fallback }: { query: FailedQuery; fallback: string }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-danger-600/30 bg-danger-50 p-5 text-danger-700">
      <p>{errorMessage(query.error, fallback)}</p>
      <Button variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
        Try again
      </Button>
    </div>
  );
}

/** What "Load more" needs of an infinite query. */
interface NextPageQuery {
  error: unknown;
  hasNextPage: boolean;
  isFetchNextPageError: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** What a paged (infinite) list query offers: its first load's state and the next page. */
export interface PagedQuery extends FailedQuery, NextPageQuery {
  data: unknown;
  isPending: boolean;
  isError: boolean;
  fetchStatus: string;
}

/** "Load more" under a paged list while the server has more; a failed next page says why above the button. */
export function LoadMore({ query, fallback, className = 'mt-6' }: { query: NextPageQuery; fallback: string; className?: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className={`${className ? `${className} ` : ''}flex flex-col items-center gap-2`}>
      {query.isFetchNextPageError && (
        <p role="alert" className="text-sm text-danger-700">
          {errorMessage(query.error, fallback)}
        </p>
      )}
      <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
        Load more
      </Button>
    </div>
  );
}

export interface PagedListProps {
  /** The list's query; loading until the account is known and the first page is in. */
  query: PagedQuery;
  accountNumber: string | undefined;
  /** How many rows the loaded pages hold. */
  count: number;
  /** The skeleton's accessible name, e.g. "Loading withdrawals". */
  loadingLabel: string;
  /** Shown when the first page fails and the server said nothing. */
  loadFallback: string;
  /** Shown when a further page fails and the server said nothing. */
  moreFallback: string;
  /** What stands in place of an empty list. */
  empty: ReactNode;
  /** The rows (table and phone cards); a function gets the account number, known by then. */
  children: ReactNode | ((accountNumber: string) => ReactNode);
}

/** A paged list's one body: skeleton while it loads, the error with "Try again", the empty state, or the rows with "Load more". */
export function PagedList({ query, accountNumber, count, loadingLabel, loadFallback, moreFallback, empty, children }: PagedListProps) {
  if (!accountNumber || (query.isPending && query.fetchStatus !== 'idle')) return <ListSkeleton label={loadingLabel} />;
  if (query.isError && !query.data) return <ListLoadError query={query} fallback={loadFallback} />;
  if (count === 0) return empty;
  return (
    <>
      {typeof children === 'function' ? children(accountNumber) : children}
      <LoadMore query={query} fallback={moreFallback} />
    </>
  );
}

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

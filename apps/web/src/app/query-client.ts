import { QUERY_RETRIES, QUERY_RETRY_MAX_DELAY_MS, QUERY_STALE_MS } from '@kestrel/shared';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/http.ts';

/**
 * A client error (400-499) will not change on a retry, so only network failures,
 * timeouts, rate limits and server errors are retried.
 */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.status === 0 || error.status === 408 || error.status === 429) return true;
  return error.status >= 500;
}

/** Exponential back-off: 1 s, 2 s, 4 s, ... capped at 30 s. */
export const retryDelay = (attempt: number): number => Math.min(1000 * 2 ** attempt, QUERY_RETRY_MAX_DELAY_MS);

/**
 * A QueryClient as the app configures it: data stays fresh 5 minutes, failed reads are
 * retried 3 times with back-off. Mutations are never retried: a money-moving POST must not be
 * re-sent with a new idempotency key behind the user's back. The server renders each pay page
 * with a client of its own (app/checkout-ssr.tsx).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_MS,
        retry: (failureCount, error) => failureCount < QUERY_RETRIES && isRetryable(error),
        retryDelay,
        refetchOnWindowFocus: false,
      },
      mutations: {
        retry: 0,
      },
    },
  });
}

/** The browser's one QueryClient. */
export const queryClient = createQueryClient();

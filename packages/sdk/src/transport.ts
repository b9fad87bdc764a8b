import { KestrelError } from './errors.ts';

/*
 * The fetch every SDK call goes through: a timeout per attempt, and retries with exponential
 * back-off on a network error, a timeout, 429 and 503 (honouring Retry-After), never on any
 * other answer. Creating calls carry an Idempotency-Key chosen before the first attempt, so a
 * retry of a request whose answer was lost cannot act twice.
 */

export interface TransportOptions {
  /** Per attempt; default 15 000 ms. */
  timeoutMs: number;
  /** Retries after the first attempt; default 2. */
  maxRetries: number;
  /** The first back-off; doubled on each retry (default 300 ms). */
  backoffMs: number;
  /** The longest wait honoured from Retry-After (default 30 s); a longer one is not retried. */
  maxRetryAfterMs: number;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      const backoff = options.backoffMs * 2 ** attempt;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      let response: Response;
      try {
        // A Request's body can be read once: every attempt sends a copy.
        response = await options.fetch(new Request(request.clone(), { signal: controller.signal }));
      } catch (error) {
        const timedOut = controller.signal.aborted;
        if (attempt < options.maxRetries) {
          await options.sleep(backoff);
          continue;
        }
        throw new KestrelError({
          status: 0,
          code: timedOut ? 'timeout' : 'network_error',
          message: timedOut ? `No answer from Kestrel within ${options.timeoutMs} ms` : `Could not reach Kestrel: ${(error as Error).message}`,
          cause: error,
        });
      } finally {
        clearTimeout(timer);
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= options.maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait !== undefined && wait > options.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await options.sleep(Math.max(wait ?? 0, backoff));
    }
  };
}

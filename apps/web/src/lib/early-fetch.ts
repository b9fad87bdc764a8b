/**
 * A read the entry starts before the app's code has downloaded (main.tsx: the pay page's
 * payment or link; a signed-in visit's profile and the dashboard's counters,
 * app/portal-early-reads.ts), so the answer is on its way while React and the page load. The
 * first request() for the same path with the same token takes it instead of asking again; it is
 * used once, so a later read (after paying) asks the server afresh.
 */
const started = new Map<string, { token: string | undefined; response: Promise<Response> }>();
let closed = false;

/**
 * The app has started and made its own first reads (portal-app.tsx): a read the entry starts
 * after this is not started. Its answer would wait, unclaimed, for the next request() of its
 * path — a read after the person changed something (a new account) would then get the answer
 * from before the change. The entry's chunks resolve in no fixed order, so this can happen.
 */
export function closeEarlyFetches(): void {
  closed = true;
}

/** GET `path` now (unless the app has started); `token` (the session's) is sent as request() sends it, the raw Authorization header. */
export function startEarlyFetch(path: string, token?: string): void {
  if (closed) return;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = token;
  const response = fetch(path, { headers, credentials: 'same-origin' });
  // Unclaimed (the page never asked), a failure is not an unhandled rejection.
  response.catch(() => undefined);
  started.set(path, { token, response });
}

/** The answer to a read started early for `path`, if it was made with this same token (or none). */
export function takeEarlyFetch(path: string, token: string | undefined): Promise<Response> | undefined {
  const early = started.get(path);
  if (!early || early.token !== token) return undefined;
  started.delete(path);
  return early.response;
}

/**
 * A read the entry starts before the app's code has downloaded (main.tsx: the pay page's
 * payment or link; a signed-in visit's profile and the dashboard's counters,
 * app/portal-early-reads.ts), so the answer is on its way while React and the page load. The
 * first request() for the same path with the same token takes it instead of asking again; it is
 * used once, so a later read (after paying) asks the server afresh.
 */
const started = new Map<string, { token: string | undefined; response: Promise<Response> }>();

/** GET `path` now; `token` (the session's) is sent as request() sends it, the raw Authorization header. */
export function startEarlyFetch(path: string, token?: string): void {
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

/**
 * A public read the entry starts before the app's code has downloaded (main.tsx: the pay
 * page's payment or link), so the answer is on its way while React and the page load. The
 * first request() for the same path takes it instead of asking again; it is used once, so a
 * later read (after paying) asks the server afresh.
 */
const started = new Map<string, Promise<Response>>();

export function startEarlyFetch(path: string): void {
  const response = fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  // Unclaimed (the page never asked), a failure is not an unhandled rejection.
  response.catch(() => undefined);
  started.set(path, response);
}

export function takeEarlyFetch(path: string): Promise<Response> | undefined {
  const response = started.get(path);
  started.delete(path);
  return response;
}

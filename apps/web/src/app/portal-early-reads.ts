import { isDashboardPath } from '../features/dashboard/dashboard-path.ts';
import { startEarlyFetch } from '../lib/early-fetch.ts';

/**
 * A cookie as js-cookie reads it (lib/cookies.ts), without js-cookie, which the portal app's
 * chunks bring: this chunk is needed before them. Only the values the session writes are read here.
 */
function cookie(name: string): string | undefined {
  for (const pair of document.cookie.split('; ')) {
    const separator = pair.indexOf('=');
    if (pair.slice(0, separator) !== name) continue;
    let value = pair.slice(separator + 1);
    if (value.startsWith('"')) value = value.slice(1, -1);
    return value.replace(/(%[\dA-F]{2})+/gi, decodeURIComponent) || undefined;
  }
  return undefined;
}

/**
 * A signed-in visit's first reads, started by the entry (main.tsx) beside the portal's chunks
 * rather than after them: the user's profile (the portal gate waits for it on every page) and, on the
 * dashboard, the active account's counters. The portal app claims both at once (portal-app.tsx),
 * so neither is left over for a later read. Cookie names: lib/cookies.ts's COOKIE_NAMES.
 */
export function startPortalEarlyReads(pathname: string): void {
  const userId = cookie('userId');
  const token = cookie('accessToken');
  if (!userId || !token) return;
  startEarlyFetch(`/v1/user/${encodeURIComponent(userId)}`, token);
  const accountNumber = cookie('accountNumber');
  if (accountNumber && isDashboardPath(pathname)) startEarlyFetch(`/v1/account/${encodeURIComponent(accountNumber)}/summary`, token);
}

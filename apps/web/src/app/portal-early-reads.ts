import { isDashboardPath } from '../features/dashboard/dashboard-path.ts';
import { COOKIE_NAMES, readCookie } from '../lib/cookies.ts';
import { startEarlyFetch } from '../lib/early-fetch.ts';

/**
 * A signed-in visit's first reads, started by the entry (main.tsx) beside the portal's chunks
 * rather than after them: the user's profile (the portal gate waits for it on every page) and, on the
 * dashboard, the active account's counters. The portal app claims both at once (portal-app.tsx),
 * so neither is left over for a later read.
 */
export function startPortalEarlyReads(pathname: string): void {
  const userId = readCookie(COOKIE_NAMES.userId);
  const token = readCookie(COOKIE_NAMES.accessToken);
  if (!userId || !token) return;
  startEarlyFetch(`/v1/user/${encodeURIComponent(userId)}`, token);
  const accountNumber = readCookie(COOKIE_NAMES.accountNumber);
  if (accountNumber && isDashboardPath(pathname)) startEarlyFetch(`/v1/account/${encodeURIComponent(accountNumber)}/summary`, token);
}

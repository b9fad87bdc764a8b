import { ACCOUNT_COOKIE_POLL_MS, SESSION_MS } from '@kestrel/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { COOKIE_NAMES, readCookie, removeCookie, writeCookie } from './cookies.ts';

/**
 * The signed-in session as the browser holds it: the spec's five cookies plus the time
 * of login (localStorage), from which the 7-day auto-logout is computed.
 *
 * Components read it with `useSession()`; it is re-read from the cookies every second
 * (the spec's account cookie polling), so another tab's login, logout or account switch
 * shows up here too.
 */
export interface Session {
  userId: string | undefined;
  accessToken: string | undefined;
  accountNumber: string | undefined;
  accountEmail: string | undefined;
  accountUserName: string | undefined;
}

/** The account the portal works on; written after login and by the account switcher. */
export interface ActiveAccount {
  accountNumber: string;
  accountEmail: string;
  userName: string;
}

const STARTED_AT_KEY = 'kestrel.sessionStartedAt';

function readSession(): Session {
  return {
    userId: readCookie(COOKIE_NAMES.userId),
    accessToken: readCookie(COOKIE_NAMES.accessToken),
    accountNumber: readCookie(COOKIE_NAMES.accountNumber),
    accountEmail: readCookie(COOKIE_NAMES.accountEmail),
    accountUserName: readCookie(COOKIE_NAMES.accountUserName),
  };
}

function sameSession(a: Session, b: Session): boolean {
  return (
    a.userId === b.userId &&
    a.accessToken === b.accessToken &&
    a.accountNumber === b.accountNumber &&
    a.accountEmail === b.accountEmail &&
    a.accountUserName === b.accountUserName
  );
}

let current: Session = readSession();
const listeners = new Set<() => void>();

/** Re-reads the cookies; notifies subscribers only when something changed. */
export function refreshSession(): Session {
  const next = readSession();
  if (!sameSession(next, current)) {
    current = next;
    for (const listener of listeners) listener();
  }
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const signedOut: Session = { userId: undefined, accessToken: undefined, accountNumber: undefined, accountEmail: undefined, accountUserName: undefined };
const getSignedOut = () => signedOut;

export function getSession(): Session {
  return current;
}

export function useSession(): Session {
  // Server-rendered HTML (the prerendered sign-in pages, the server-rendered pay pages) is a
  // signed-out visitor's: hydrating renders signed out too, then the cookies' session.
  return useSyncExternalStore(subscribe, getSession, getSignedOut);
}

export function isSignedIn(session: Session): boolean {
  return Boolean(session.accessToken && session.userId);
}

function readStartedAt(): number | undefined {
  try {
    const value = Number(window.localStorage.getItem(STARTED_AT_KEY));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeStartedAt(value: number | undefined): void {
  try {
    if (value === undefined) window.localStorage.removeItem(STARTED_AT_KEY);
    else window.localStorage.setItem(STARTED_AT_KEY, String(value));
  } catch {
    // Storage can be unavailable (private mode, quota); the cookies' own expiry still ends the session.
  }
}

/** Cookies die when the session does: 7 days after login, whenever they are written. */
function sessionExpiry(): Date {
  return new Date((readStartedAt() ?? Date.now()) + SESSION_MS);
}

function writeAccountCookies(account: ActiveAccount): void {
  const expires = sessionExpiry();
  writeCookie(COOKIE_NAMES.accountNumber, account.accountNumber, expires);
  writeCookie(COOKIE_NAMES.accountEmail, account.accountEmail, expires);
  writeCookie(COOKIE_NAMES.accountUserName, account.userName, expires);
}

function removeAccountCookies(): void {
  removeCookie(COOKIE_NAMES.accountNumber);
  removeCookie(COOKIE_NAMES.accountEmail);
  removeCookie(COOKIE_NAMES.accountUserName);
}

/** After login or sign-up: stores userId and accessToken (and the first account, when known). */
export function startSession(input: { userId: string; token: string; account?: ActiveAccount }): void {
  writeStartedAt(Date.now());
  const expires = sessionExpiry();
  writeCookie(COOKIE_NAMES.userId, input.userId, expires);
  writeCookie(COOKIE_NAMES.accessToken, input.token, expires);
  removeAccountCookies();
  if (input.account) writeAccountCookies(input.account);
  refreshSession();
}

/** The account switcher and account creation make an account the active one. */
export function setActiveAccount(account: ActiveAccount): void {
  writeAccountCookies(account);
  refreshSession();
}

/** Logout: removes the five cookies. */
export function endSession(): void {
  removeCookie(COOKIE_NAMES.userId);
  removeCookie(COOKIE_NAMES.accessToken);
  removeAccountCookies();
  writeStartedAt(undefined);
  refreshSession();
}

/** The 7-day auto-logout: the spec clears the access cookie and the account cookies. */
function expireSession(): void {
  removeCookie(COOKIE_NAMES.accessToken);
  removeAccountCookies();
  writeStartedAt(undefined);
  refreshSession();
}

function sessionHasExpired(now: number): boolean {
  if (!readCookie(COOKIE_NAMES.accessToken)) return false;
  const startedAt = readStartedAt();
  if (startedAt === undefined) {
    // Signed in before the login time was recorded (or storage was cleared): count from now.
    writeStartedAt(now);
    return false;
  }
  return now - startedAt >= SESSION_MS;
}

/**
 * Polls the cookies every second (ACCOUNT_COOKIE_POLL_MS) and ends the session 7 days
 * after login, calling `onExpired` so the app can send the user to /login.
 * Mount once, at the root of the router.
 */
export function useSessionWatcher(onExpired: () => void): void {
  const onExpiredRef = useRef(onExpired);
  useEffect(() => {
    onExpiredRef.current = onExpired;
  }, [onExpired]);

  useEffect(() => {
    const tick = () => {
      if (sessionHasExpired(Date.now())) {
        expireSession();
        onExpiredRef.current();
        return;
      }
      refreshSession();
    };
    tick();
    const timer = window.setInterval(tick, ACCOUNT_COOKIE_POLL_MS);
    return () => window.clearInterval(timer);
  }, []);
}

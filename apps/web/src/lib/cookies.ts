import Cookies from 'js-cookie';

/**
 * The browser-held session values the spec lists (path /). They are UI state only:
 * the server authenticates from the Authorization header, never from cookies.
 */
export const COOKIE_NAMES = {
  userId: 'userId',
  accessToken: 'accessToken',
  accountNumber: 'accountNumber',
  accountEmail: 'acc email',
  accountUserName: 'acc_user_name',
} as const;

export type CookieKey = keyof typeof COOKIE_NAMES;
export type CookieName = (typeof COOKIE_NAMES)[CookieKey];

const baseAttributes = (): Cookies.CookieAttributes => ({
  path: '/',
  sameSite: 'Lax',
  secure: window.location.protocol === 'https:',
});

export function readCookie(name: CookieName): string | undefined {
  return Cookies.get(name) || undefined;
}

export function writeCookie(name: CookieName, value: string, expires: Date): void {
  Cookies.set(name, value, { ...baseAttributes(), expires });
}

export function removeCookie(name: CookieName): void {
  Cookies.remove(name, baseAttributes());
}

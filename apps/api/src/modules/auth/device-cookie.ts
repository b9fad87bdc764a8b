import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * The known-device cookie (issue 19): set at a successful sign-in, sent back only to the
 * sign-in route, and used there only as a hint that lets the right password through while
 * others' failures hold the shared throttles. It never authenticates anyone: the password is
 * checked as always, and every other route reads the caller from the Authorization token.
 */
export const DEVICE_COOKIE = 'kestrel_device';
export const DEVICE_COOKIE_PATH = '/v1/auth/login';
/** A device counts as known for this long after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
/** Accounts one browser remembers (a shared family computer); the most recent first. */
const MAX_USERS_PER_DEVICE = 5;

export interface KnownDevice {
  deviceId: string;
  userIds: string[];
}

function signature(secretKey: string, payload: string): Buffer {
  // A key of its own, derived from SECRET_KEY, so this signature can never stand in for another.
  const key = createHmac('sha256', secretKey).update('kestrel device cookie v1').digest();
  return createHmac('sha256', key).update(payload).digest();
}

/** The device this request comes from, when it carries a valid, unexpired device cookie. */
export function readKnownDevice(secretKey: string, cookieHeader: string | undefined, now = Date.now()): KnownDevice | undefined {
  if (!cookieHeader || cookieHeader.length > 8_192) return undefined;
  const value = parseCookie(cookieHeader)[DEVICE_COOKIE];
  if (!value) return undefined;
  const [payload, signed, ...rest] = value.split('.');
  if (!payload || !signed || rest.length > 0) return undefined;
  const given = Buffer.from(signed, 'base64url');
  const expected = signature(secretKey, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { d?: unknown; u?: unknown; t?: unknown };
    if (typeof data.d !== 'string' || typeof data.t !== 'number' || !Array.isArray(data.u)) return undefined;
    if (now / 1000 - data.t > DEVICE_COOKIE_MAX_AGE_SECONDS) return undefined;
    const userIds = data.u.filter((id): id is string => typeof id === 'string');
    return { deviceId: data.d, userIds };
  } catch {
    return undefined;
  }
}

/** The Set-Cookie value after `userId` signed in on this device (the device keeps its id). */
export function deviceCookieFor(secretKey: string, known: KnownDevice | undefined, userId: string, secure: boolean, now = Date.now()): string {
  const deviceId = known?.deviceId ?? randomBytes(16).toString('base64url');
  const userIds = [userId, ...(known?.userIds ?? []).filter((id) => id !== userId)].slice(0, MAX_USERS_PER_DEVICE);
  const payload = Buffer.from(JSON.stringify({ d: deviceId, u: userIds, t: Math.floor(now / 1000) })).toString('base64url');
  return stringifySetCookie({
    name: DEVICE_COOKIE,
    value: `${payload}.${signature(secretKey, payload).toString('base64url')}`,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}

import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: used for access tokens and e-mail links. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a leaked table does not leak live tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

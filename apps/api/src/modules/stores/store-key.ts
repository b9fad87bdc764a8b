import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Store credentials. The storeId is public (it names the store in headers and URLs); the
 * storeKey is a secret the owner must be able to read again, so it is kept encrypted with
 * AES-256-GCM under a key derived from SECRET_KEY (never stored in the database), and a
 * presented key is compared in constant time.
 */

const derivedKeys = new Map<string, Buffer>();
function encryptionKey(secret: string): Buffer {
  let key = derivedKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'kestrel-store-keys', 'store-key-encryption-v1', 32));
    derivedKeys.set(secret, key);
  }
  return key;
}

/** 128 random bits, hex: the store's public id. */
export const newStoreId = (): string => randomBytes(16).toString('hex');
/** 192 random bits, base64url: the store's secret key. */
export const newStoreKey = (): string => randomBytes(24).toString('base64url');

/** "v1.<iv>.<tag>.<ciphertext>", each base64url. */
export function encryptStoreKey(secret: string, storeKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(storeKey, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function decryptStoreKey(secret: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown store key format');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Constant-time comparison of a presented key with the real one. Both are first reduced to
 * an HMAC of the same length, so neither the content nor the length leaks through timing.
 */
export function storeKeyMatches(secret: string, actual: string, presented: string): boolean {
  const mac = (value: string) => createHmac('sha256', encryptionKey(secret)).update(value).digest();
  return timingSafeEqual(mac(actual), mac(presented));
}

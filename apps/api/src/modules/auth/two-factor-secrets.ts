import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@kestrel/shared';
import { Secret, TOTP } from 'otpauth';

/*
 * The secrets of two-factor sign-in (README, Two-factor sign-in). The TOTP secret must be
 * read again at every sign-in, so it is sealed with AES-256-GCM under a key derived from
 * SECRET_KEY (never stored); recovery codes are only compared, so only an HMAC-SHA256 of
 * each is stored, under another derived key. Codes are checked by otpauth (RFC 6238).
 */

const derived = new Map<string, Buffer>();
function derivedKey(secret: string, purpose: 'totp-seal' | 'recovery-codes'): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'kestrel-two-factor', `${purpose}-v1`, 32));
    derived.set(id, key);
  }
  return key;
}

/** "v1.<iv>.<tag>.<ciphertext>", each base64url, of the base32 secret. */
export function sealTotpSecret(secretKey: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(secretKey, 'totp-seal'), iv);
  const ciphertext = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function openTotpSecret(secretKey: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown sealed TOTP secret format');
  const decipher = createDecipheriv('aes-256-gcm', derivedKey(secretKey, 'totp-seal'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

function totpOf(base32: string, label = 'Kestrel'): TOTP {
  return new TOTP({ issuer: 'Kestrel', label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

/** A new 160-bit secret (RFC 4226's recommended length) in base32, and its otpauth:// URI for the QR code. */
export function newTotpSecret(accountLabel: string): { secret: string; otpauthUri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUri: totpOf(secret, accountLabel).toString() };
}

/** Whether a typed code has the app's form (6 digits, spaces allowed) rather than a recovery code's. */
export function looksLikeTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
}

/**
 * The 30-second step a code belongs to, now or one step either side (clock drift), or null
 * when it matches none. Whether that step was already used is the caller's check (replay).
 */
export function totpStepOf(base32: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  const delta = totpOf(base32).validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
}

// Without look-alikes (0/o, 1/l/i): ten characters of 31 are about 50 bits a code.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, "xxxxx-xxxxx". */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The stored form of a recovery code: case, spaces and dashes do not matter when typing it. */
export function recoveryCodeHash(secretKey: string, code: string): string {
  const normalised = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHmac('sha256', derivedKey(secretKey, 'recovery-codes')).update(normalised).digest('hex');
}

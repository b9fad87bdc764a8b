import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Fakes Date (only; in this process, so the server's clock too) around each test of the calling
 * file, so a test can step it on to get a fresh authenticator-app code.
 */
export function useSteppedClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Moves the faked clock one 30-second step on. */
export const nextStep = () => vi.setSystemTime(Date.now() + 30_000);

/** The authenticator app's code for a base32 secret at a time (now by default). */
export const codeOf = (secret: string, timestamp = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

/**
 * A toast that survives a full page reload: the spec reloads the page after some actions
 * (opening an account) and then shows their toast. The message waits in sessionStorage
 * and the app shows it once on its next start.
 */
export type FlashKind = 'success' | 'error';
export interface Flash {
  kind: FlashKind;
  message: string;
}

const FLASH_KEY = 'kestrel.flash';

export function flashAfterReload(flash: Flash): void {
  try {
    window.sessionStorage.setItem(FLASH_KEY, JSON.stringify(flash));
  } catch {
    // Storage unavailable (private mode, quota): the page still reloads, only the toast is lost.
  }
}

/** The waiting flash, removed as it is read so it shows once. */
export function takeFlash(): Flash | undefined {
  try {
    const raw = window.sessionStorage.getItem(FLASH_KEY);
    if (!raw) return undefined;
    window.sessionStorage.removeItem(FLASH_KEY);
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { kind, message } = value as Record<string, unknown>;
    if ((kind === 'success' || kind === 'error') && typeof message === 'string') return { kind, message };
    return undefined;
  } catch {
    return undefined;
  }
}

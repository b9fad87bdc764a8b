import { afterEach, beforeEach, vi } from 'vitest';
import { signIn } from './render.tsx';

/**
 * For a describe block whose tests download: signs in before each test and answers the array
 * that holds what each test saved as a file (through `URL.createObjectURL`), emptied before
 * each test; the spies are undone after it.
 */
export function savedFiles(): Blob[] {
  const saved: Blob[] = [];
  beforeEach(() => {
    signIn();
    saved.length = 0;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:saved';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());
  return saved;
}

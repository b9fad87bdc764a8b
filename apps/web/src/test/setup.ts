import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { endSession } from '../lib/session.ts';

// Testing Library unmounts after each test only when the runner has global hooks; ours has not.
afterEach(() => {
  cleanup();
  endSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

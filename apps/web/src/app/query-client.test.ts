import { QUERY_RETRIES, QUERY_RETRY_MAX_DELAY_MS } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/http.ts';
import { queryClient, retryDelay } from './query-client.ts';

const apiError = (status: number) => new ApiError({ status, code: 'x', message: 'x', fromServer: true });

describe('query client defaults', () => {
  it('backs off exponentially and never waits more than 30 s', () => {
    expect([0, 1, 2, 3].map(retryDelay)).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(10)).toBe(QUERY_RETRY_MAX_DELAY_MS);
  });

  it('retries server and network failures 3 times, client errors never', () => {
    const retry = queryClient.getDefaultOptions().queries?.retry;
    if (typeof retry !== 'function') throw new Error('retry should be a function');
    expect(retry(0, apiError(503))).toBe(true);
    expect(retry(0, apiError(0))).toBe(true);
    expect(retry(QUERY_RETRIES, apiError(503))).toBe(false);
    expect(retry(0, apiError(404))).toBe(false);
    expect(retry(0, apiError(401))).toBe(false);
  });

  it('never retries a mutation', () => {
    expect(queryClient.getDefaultOptions().mutations?.retry).toBe(0);
  });
});

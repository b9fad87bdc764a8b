import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarlyFetch, takeEarlyFetch } from './early-fetch.ts';

describe('a read started early', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the token as the API client does, and goes once, only to a request with the same token', async () => {
    const fetch = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetch);
    startEarlyFetch('/v1/user/u-1', 'token-1');
    expect(fetch).toHaveBeenCalledWith('/v1/user/u-1', { headers: { Accept: 'application/json', Authorization: 'token-1' }, credentials: 'same-origin' });
    expect(takeEarlyFetch('/v1/user/u-1', undefined)).toBeUndefined();
    expect(takeEarlyFetch('/v1/user/u-1', 'token-2')).toBeUndefined();
    expect(await takeEarlyFetch('/v1/user/u-1', 'token-1')).toBeInstanceOf(Response);
    expect(takeEarlyFetch('/v1/user/u-1', 'token-1')).toBeUndefined();
  });

  it('a public read (no token) goes to a request without one', () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')));
    startEarlyFetch('/v1/payment/abc');
    expect(takeEarlyFetch('/v1/payment/abc', 'token-1')).toBeUndefined();
    expect(takeEarlyFetch('/v1/payment/abc', undefined)).toBeDefined();
  });

  it('is not started once the app has started its own reads, so no later request gets an answer from before', async () => {
    const fetch = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetch);
    vi.resetModules();
    const early = await import('./early-fetch.ts');
    early.closeEarlyFetches();
    early.startEarlyFetch('/v1/user/u-2', 'token-1');
    expect(fetch).not.toHaveBeenCalled();
    expect(early.takeEarlyFetch('/v1/user/u-2', 'token-1')).toBeUndefined();
  });
});

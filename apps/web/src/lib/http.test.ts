import { afterEach, describe, expect, it, vi } from 'vitest';
import { noData } from '@kestrel/shared';
import { z } from 'zod';
import { ApiError, errorMessage, http, onSessionRejected } from './http.ts';

const anything = z.unknown();

function answer(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError)) throw new Error('expected an ApiError');
  return outcome;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('http client', () => {
  it("hands on the envelope's other top-level fields (the gateway's redirectUrl)", async () => {
    stubFetch(answer(200, { status: 'success', message: 'Paid', redirectUrl: 'https://shop.example/back', data: { ok: true } }));
    const result = await http.post('/v1/payment/complete/p1', {}, z.object({ ok: z.boolean() }), { auth: false });
    expect(result.extra).toEqual({ redirectUrl: 'https://shop.example/back' });
    expect(result.data).toEqual({ ok: true });
  });

  it('unwraps a success envelope and sends JSON with the raw token', async () => {
    const fetchMock = stubFetch(answer(201, { status: 'success', message: 'Created', data: { _id: 'u1' } }));
    const result = await http.post('/v1/user/register', { email: 'a@b.co' }, z.object({ _id: z.string() }), { token: 'tok123' });

    expect(result).toEqual({ data: { _id: 'u1' }, message: 'Created', status: 201, extra: {} });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/v1/user/register');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ email: 'a@b.co' }));
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('tok123');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('turns an error envelope into an ApiError with the server message, code and fields', async () => {
    stubFetch(answer(400, { status: 'error', error: 'Email is required', code: 'validation_failed', fields: { email: 'Email is required' } }));
    const error = await failure(http.post('/v1/auth/login', {}, noData, { auth: false }));

    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Email is required');
    expect(error.fields).toEqual({ email: 'Email is required' });
    expect(error.fromServer).toBe(true);
    expect(errorMessage(error, 'fallback')).toBe('Email is required');
  });

  it('rejects a 2xx answer that is not a success envelope', async () => {
    stubFetch(answer(200, { status: 'error', data: null }));
    const error = await failure(http.get('/v1/anything', anything, { auth: false }));

    expect(error.code).toBe('invalid_response');
    expect(error.fromServer).toBe(false);
    expect(errorMessage(error, 'Sign-up failed! try again')).toBe('Sign-up failed! try again');
  });

  it('reports a network failure as status 0, so callers show their fallback text', async () => {
    stubFetch(new TypeError('fetch failed'));
    const error = await failure(http.get('/v1/anything', anything, { auth: false }));

    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(errorMessage(error, 'Login failed!')).toBe('Login failed!');
  });

  it('keeps the fallback when an error answer is not JSON', async () => {
    stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await failure(http.get('/v1/anything', anything, { auth: false }));

    expect(error.status).toBe(502);
    expect(errorMessage(error, 'Sign-up Failed!')).toBe('Sign-up Failed!');
  });

  it('shows a short plain-text error as it came, but never a long one', async () => {
    stubFetch(new Response('Payment service is busy, try again in a minute\n', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
    const plain = await failure(http.post('/v1/payment-request/card/complete-payment/x', {}, anything, { auth: false }));
    expect(plain).toMatchObject({ status: 503, code: 'plain_error', fromServer: true });
    expect(errorMessage(plain, 'An unexpected error occurred.')).toBe('Payment service is busy, try again in a minute');

    stubFetch(new Response('x'.repeat(301), { status: 500, headers: { 'content-type': 'text/plain' } }));
    const long = await failure(http.post('/v1/payment-request/card/complete-payment/x', {}, anything, { auth: false }));
    expect(errorMessage(long, 'An unexpected error occurred.')).toBe('An unexpected error occurred.');
  });

  it('announces a rejected session only when the request carried a token', async () => {
    const rejected = vi.fn();
    const stop = onSessionRejected(rejected);
    try {
      stubFetch(answer(401, { status: 'error', error: 'Invalid email or password!', code: 'invalid_credentials' }));
      await failure(http.post('/v1/auth/login', {}, noData, { auth: false }));
      expect(rejected).not.toHaveBeenCalled();

      stubFetch(answer(401, { status: 'error', error: 'Please log in to continue', code: 'unauthorized' }));
      await failure(http.get('/v1/user/u1', anything, { token: 'expired' }));
      expect(rejected).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('logs contract drift loudly in development and still hands the data on', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      stubFetch(answer(200, { status: 'success', data: { _id: 42 } }));
      const result = await http.get('/v1/user/u1', z.object({ _id: z.string() }), { auth: false });
      expect(result.data).toEqual({ _id: 42 });
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]?.[0])).toContain('[contract drift] /v1/user/u1');

      logged.mockClear();
      stubFetch(answer(200, { status: 'success', data: { _id: 'u1' } }));
      await http.get('/v1/user/u1', z.object({ _id: z.string() }), { auth: false });
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });
});

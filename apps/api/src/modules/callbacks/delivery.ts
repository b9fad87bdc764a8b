import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../../security/private-addresses.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signing.ts';

export const CALLBACK_TIMEOUT_MS = 10_000;

export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

class RefusedTarget extends Error {}

/**
 * A DNS lookup that refuses private and loopback answers (unless allowed). The connection is
 * made to the very address checked here, so a name that resolves differently a second time
 * (DNS rebinding) cannot slip through.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((entry) => allowPrivate || !isPrivateAddress(entry.address));
      if (usable.length === 0) return callback(new RefusedTarget(`refused: ${hostname} resolves to a private or loopback address`), '', 0);
      if (options.all) return callback(null, usable as unknown as string, 0);
      const first = usable[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * POSTs a signed callback body. 10 s timeout for the whole exchange, redirects are not
 * followed (a 3xx is a failed attempt), only http(s), private targets refused unless allowed.
 */
export function sendCallback(targetUrl: string, body: string, storeKey: string, allowPrivate: boolean, timeoutMs = CALLBACK_TIMEOUT_MS): Promise<DeliveryResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): DeliveryResult => ({
    ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let url: URL;
  try {
    url = new URL(targetUrl);
  } catch {
    return Promise.resolve(done(null, 'refused: not a URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(done(null, 'refused: only http and https callbacks are sent'));
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !allowPrivate && isPrivateAddress(literal)) return Promise.resolve(done(null, `refused: ${literal} is a private or loopback address`));

  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(allowPrivate),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Kestrel-Callbacks/1',
          [SIGNATURE_HEADER]: signatureHeader(storeKey, body),
        },
      },
      (response) => {
        // Read (and bound) the answer so the socket is freed; its content is not kept.
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 64 * 1024) response.destroy();
        });
        response.on('end', () => {
          const status = response.statusCode ?? null;
          const redirect = status !== null && status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '?'} not followed` : null;
          resolve(done(status, redirect ?? (status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`)));
        });
        response.on('error', (error) => resolve(done(response.statusCode ?? null, error.message)));
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve(done(null, error instanceof RefusedTarget ? error.message : error.message || 'network error'));
    });
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

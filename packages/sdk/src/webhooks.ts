import { KestrelSignatureError } from './errors.ts';
import type { components } from './generated/store-api.ts';

/*
 * Verifying what Kestrel tells a store: the callback POSTed to its callbackURL (header
 * `Kestrel-Signature: t=<unix seconds>,v1=<hex>`, the hex being HMAC-SHA256 with the store
 * key over "<t>.<raw body>"), and the customer's return address (the same fields as query
 * parameters plus `timestamp` and `signature`, signed over the same JSON). Web Crypto, so it
 * runs on Node 20+ and in browsers; the comparison takes the same time wherever it differs.
 * Several keys may be given (a key being rotated): any one of them may have signed.
 */

export type StoreCallbackEvent = components['schemas']['StoreCallbackEvent'];
/** A refund of one of the store's payments succeeded (`event: 'refund.succeeded'`). */
export type StoreRefundCallbackEvent = components['schemas']['StoreRefundCallbackEvent'];
/**
 * What a callback tells: a payment (`paymentStatus`) or a refund (`event`). Each side names
 * the other's key as absent, so `event.paymentStatus === 'success'` and
 * `event.event === 'refund.succeeded'` both type-check and narrow.
 */
export type KestrelEvent = (StoreCallbackEvent & { event?: undefined }) | (StoreRefundCallbackEvent & { paymentStatus?: undefined });

export interface VerifyOptions {
  /** How far the signature's time may be from now, either way (clock skew and delivery delay); default 300 s. */
  toleranceSeconds?: number;
  /** "Now" in Unix seconds (tests). */
  nowSeconds?: number;
}

export const SIGNATURE_HEADER = 'Kestrel-Signature';
const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();

async function hmacHex(key: string, message: string): Promise<string> {
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Equal-length strings compared without an early exit. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

async function checkSignature(keys: string | readonly string[], timestamp: number, body: string, signatures: readonly string[], options: VerifyOptions): Promise<void> {
  const list = typeof keys === 'string' ? [keys] : [...keys];
  if (list.length === 0 || list.some((key) => typeof key !== 'string' || key.length === 0)) throw new TypeError('webhooks.verify: give the store key (or keys)');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new KestrelSignatureError('timestamp_outside_tolerance', `The signature's time is ${now - timestamp} s from now; at most ${tolerance} s is accepted (a replay, or a clock far off)`);
  }
  let matched = false;
  // Every key against every signature, with no early exit: the time taken says nothing about which was close.
  for (const key of list) {
    const expected = await hmacHex(key, `${timestamp}.${body}`);
    for (const signature of signatures) matched = constantTimeEqual(expected, signature.toLowerCase()) || matched;
  }
  if (!matched) throw new KestrelSignatureError('signature_mismatch', 'The signature does not match: the body was changed, or it was signed with another key');
}

function parseEvent(body: string): KestrelEvent {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new KestrelSignatureError('payload_invalid', 'The callback body is not JSON');
  }
  const refund = value as Partial<StoreRefundCallbackEvent> | null;
  if (refund !== null && typeof refund === 'object' && 'event' in refund) {
    const validRefund =
      refund.event === 'refund.succeeded' &&
      typeof refund.refundId === 'string' &&
      typeof refund.paymentId === 'string' &&
      typeof refund.orderId === 'string' &&
      typeof refund.currency === 'string' &&
      typeof refund.amount === 'number' &&
      typeof refund.fee === 'number' &&
      typeof refund.amountRefunded === 'number' &&
      typeof refund.amountRemaining === 'number' &&
      typeof refund.tnxId === 'string';
    if (!validRefund) throw new KestrelSignatureError('payload_invalid', 'The callback body is not a Kestrel refund event');
    return refund as StoreRefundCallbackEvent;
  }
  const event = value as Partial<StoreCallbackEvent> | null;
  const valid =
    event !== null &&
    typeof event === 'object' &&
    (event.paymentStatus === 'success' || event.paymentStatus === 'failed') &&
    (event.tnxId === null || typeof event.tnxId === 'string') &&
    typeof event.currency === 'string' &&
    typeof event.amount === 'number' &&
    typeof event.orderId === 'string' &&
    typeof event.paymentId === 'string';
  if (!valid) throw new KestrelSignatureError('payload_invalid', 'The callback body is not a Kestrel payment event');
  return event as StoreCallbackEvent & { event?: undefined };
}

/**
 * Verifies a callback and answers its event: a payment's, or a refund's (`event`). `rawBody` is the request body exactly as
 * received (text or bytes: parse it only after verifying); `signatureHeader` is the
 * `Kestrel-Signature` header. Throws KestrelSignatureError when it is not provably Kestrel's.
 */
export async function verify(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  storeKey: string | readonly string[],
  options: VerifyOptions = {},
): Promise<KestrelEvent> {
  if (!signatureHeader) throw new KestrelSignatureError('signature_missing', `No ${SIGNATURE_HEADER} header`);
  const parts = signatureHeader.split(',').map((part) => part.trim().split('='));
  const timestamps = parts.filter(([name]) => name === 't').map(([, value]) => value ?? '');
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || signatures.length === 0 || signatures.some((value) => !/^[0-9a-fA-F]{64}$/.test(value))) {
    throw new KestrelSignatureError('signature_malformed', `${SIGNATURE_HEADER} must read t=<unix seconds>,v1=<64 hex digits>`);
  }
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  await checkSignature(storeKey, Number(timestamps[0]), body, signatures, options);
  return parseEvent(body);
}

/**
 * Verifies the customer's return address (the whole URL, its query string, or its
 * URLSearchParams) and answers its event. Throws KestrelSignatureError when it is not
 * provably Kestrel's (a customer can edit an address bar).
 */
export async function verifyRedirect(
  url: string | URL | URLSearchParams,
  storeKey: string | readonly string[],
  options: VerifyOptions = {},
): Promise<StoreCallbackEvent> {
  const query = url instanceof URLSearchParams ? url : url instanceof URL ? url.searchParams : new URL(url, 'http://return.invalid').searchParams;
  const signature = query.get('signature');
  const timestamp = query.get('timestamp');
  if (!signature || !timestamp) throw new KestrelSignatureError('signature_missing', 'The address has no signature and timestamp');
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-fA-F]{64}$/.test(signature)) throw new KestrelSignatureError('signature_malformed', 'The address has a malformed signature or timestamp');
  const paymentStatus = query.get('paymentStatus');
  const amount = Number(query.get('amount'));
  if ((paymentStatus !== 'success' && paymentStatus !== 'failed') || !Number.isFinite(amount)) throw new KestrelSignatureError('payload_invalid', 'The address is not a Kestrel return address');
  // The server signs the callback's JSON, fields in this order; the address carries them as text.
  const tnxId = query.get('tnxId');
  const event: StoreCallbackEvent = {
    paymentStatus,
    tnxId: tnxId ? tnxId : null,
    currency: query.get('currency') ?? '',
    amount,
    orderId: query.get('orderId') ?? '',
    paymentId: query.get('paymentId') ?? '',
  };
  const body = JSON.stringify({ paymentStatus: event.paymentStatus, tnxId: event.tnxId, currency: event.currency, amount: event.amount, orderId: event.orderId, paymentId: event.paymentId });
  await checkSignature(storeKey, Number(timestamp), body, [signature], options);
  return event;
}

export const webhooks = { verify, verifyRedirect, SIGNATURE_HEADER };

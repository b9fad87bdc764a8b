import { createHmac } from 'node:crypto';

/** The fields a store is told about a payment, in this order (the signed JSON keeps it). */
export interface CallbackPayload {
  paymentStatus: 'success' | 'failed';
  tnxId: string | null;
  currency: string;
  amount: number;
  orderId: string;
  paymentId: string;
}

/** The callback request's signature header. */
export const SIGNATURE_HEADER = 'Kestrel-Signature';

export function callbackBody(payload: CallbackPayload): string {
  const { paymentStatus, tnxId, currency, amount, orderId, paymentId } = payload;
  return JSON.stringify({ paymentStatus, tnxId, currency, amount, orderId, paymentId });
}

/** HMAC-SHA256 of `timestamp.body` with the store key, hex. */
export function signCallback(storeKey: string, timestamp: number, body: string): string {
  return createHmac('sha256', storeKey).update(`${timestamp}.${body}`).digest('hex');
}

/** "t=<unix seconds>,v1=<hex signature>" */
export function signatureHeader(storeKey: string, body: string, now = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${signCallback(storeKey, timestamp, body)}`;
}

/**
 * The browser's redirect after a payment: the store's callback URL with the same fields as
 * query parameters plus `timestamp` and `signature` (over the same JSON body as the callback),
 * so a store without a server-side listener can still verify what it is told.
 */
export function signedRedirectUrl(callbackUrl: string, storeKey: string, payload: CallbackPayload, now = new Date()): string {
  const url = new URL(callbackUrl);
  const timestamp = Math.floor(now.getTime() / 1000);
  url.searchParams.set('paymentStatus', payload.paymentStatus);
  url.searchParams.set('tnxId', payload.tnxId ?? '');
  url.searchParams.set('currency', payload.currency);
  url.searchParams.set('amount', String(payload.amount));
  url.searchParams.set('orderId', payload.orderId);
  url.searchParams.set('paymentId', payload.paymentId);
  url.searchParams.set('timestamp', String(timestamp));
  url.searchParams.set('signature', signCallback(storeKey, timestamp, callbackBody(payload)));
  return url.toString();
}

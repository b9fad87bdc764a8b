import { describe, expect, it } from 'vitest';
import { callbackBody, signatureHeader, signedRedirectUrl, type CallbackPayload } from '../../../apps/api/src/modules/callbacks/signing.ts';
import { KestrelSignatureError, webhooks } from './index.ts';

/* The SDK's verifier against the server's own signing (apps/api callbacks/signing.ts). */

const storeKey = 'sk_test_0123456789abcdef0123456789abcdef';
const rotatedKey = 'sk_test_fedcba9876543210fedcba9876543210';
const payload: CallbackPayload = { paymentStatus: 'success', tnxId: 'b8d1f1e0-3c55-4d39-9a0e-0f0a6f7f2a11', currency: 'USD', amount: 25.5, orderId: 'order-1001', paymentId: '6f0c2a52-7a8f-4d0e-9a55-3c1f4b1b2e10' };

async function refusal(promise: Promise<unknown>): Promise<KestrelSignatureError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(KestrelSignatureError);
  return error as KestrelSignatureError;
}

describe('webhooks.verify (the callback)', () => {
  const body = callbackBody(payload);

  it('answers the typed event of a callback the server signed, from text or bytes', async () => {
    const header = signatureHeader(storeKey, body);
    expect(await webhooks.verify(body, header, storeKey)).toEqual(payload);
    expect(await webhooks.verify(new TextEncoder().encode(body), header, storeKey)).toEqual(payload);
  });

  it('refuses a tampered body, a wrong key, a missing or malformed header', async () => {
    const header = signatureHeader(storeKey, body);
    expect((await refusal(webhooks.verify(body.replace('25.5', '2550'), header, storeKey))).code).toBe('signature_mismatch');
    expect((await refusal(webhooks.verify(body, header, 'sk_test_not_the_key'))).code).toBe('signature_mismatch');
    expect((await refusal(webhooks.verify(body, undefined, storeKey))).code).toBe('signature_missing');
    expect((await refusal(webhooks.verify(body, 'v1=abc', storeKey))).code).toBe('signature_malformed');
  });

  it('refuses an old (or future) timestamp beyond the tolerance, and accepts skew within it', async () => {
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    const old = signatureHeader(storeKey, body, tenMinutesAgo);
    const refused = await refusal(webhooks.verify(body, old, storeKey));
    expect(refused.code).toBe('timestamp_outside_tolerance');
    expect(await webhooks.verify(body, old, storeKey, { toleranceSeconds: 900 })).toEqual(payload);
    const future = signatureHeader(storeKey, body, new Date(Date.now() + 60_000));
    expect(await webhooks.verify(body, future, storeKey)).toEqual(payload);
    expect((await refusal(webhooks.verify(body, future, storeKey, { toleranceSeconds: 30 }))).code).toBe('timestamp_outside_tolerance');
  });

  it('accepts either key while a key is rotated, and only those keys', async () => {
    const signedWithOld = signatureHeader(storeKey, body);
    const signedWithNew = signatureHeader(rotatedKey, body);
    expect(await webhooks.verify(body, signedWithOld, [rotatedKey, storeKey])).toEqual(payload);
    expect(await webhooks.verify(body, signedWithNew, [rotatedKey, storeKey])).toEqual(payload);
    expect((await refusal(webhooks.verify(body, signedWithNew, [storeKey]))).code).toBe('signature_mismatch');
  });

  it('refuses a signed body that is not a payment event', async () => {
    const other = JSON.stringify({ hello: 'world' });
    expect((await refusal(webhooks.verify(other, signatureHeader(storeKey, other), storeKey))).code).toBe('payload_invalid');
  });
});

describe('webhooks.verifyRedirect (the return address)', () => {
  it('answers the event of an address the server signed, as URL, text or query', async () => {
    const address = signedRedirectUrl('https://shop.example.org/kestrel/return?cart=7', storeKey, payload);
    expect(await webhooks.verifyRedirect(address, storeKey)).toEqual(payload);
    expect(await webhooks.verifyRedirect(new URL(address), storeKey)).toEqual(payload);
    expect(await webhooks.verifyRedirect(new URL(address).searchParams, storeKey)).toEqual(payload);
    const unpaid = signedRedirectUrl('https://shop.example.org/r', storeKey, { ...payload, paymentStatus: 'failed', tnxId: null });
    expect(await webhooks.verifyRedirect(unpaid, storeKey)).toEqual({ ...payload, paymentStatus: 'failed', tnxId: null });
  });

  it('refuses an edited amount, a wrong key, an old address and an unsigned one', async () => {
    const address = new URL(signedRedirectUrl('https://shop.example.org/r', storeKey, payload));
    const edited = new URL(address);
    edited.searchParams.set('amount', '0.01');
    expect((await refusal(webhooks.verifyRedirect(edited, storeKey))).code).toBe('signature_mismatch');
    expect((await refusal(webhooks.verifyRedirect(address, rotatedKey))).code).toBe('signature_mismatch');
    expect(await webhooks.verifyRedirect(address, [rotatedKey, storeKey])).toEqual(payload);
    const old = signedRedirectUrl('https://shop.example.org/r', storeKey, payload, new Date(Date.now() - 3_600_000));
    expect((await refusal(webhooks.verifyRedirect(old, storeKey))).code).toBe('timestamp_outside_tolerance');
    expect((await refusal(webhooks.verifyRedirect('https://shop.example.org/r?paymentStatus=success', storeKey))).code).toBe('signature_missing');
  });
});

describe('webhooks.verify (the refund callback)', () => {
  const refund = {
    event: 'refund.succeeded',
    refundId: '0d9e6c1a-5b2f-4f6e-8a3c-7e1d2b4c6a80',
    paymentId: '6f0c2a52-7a8f-4d0e-9a55-3c1f4b1b2e10',
    orderId: 'order-1001',
    currency: 'USD',
    amount: 10,
    fee: 0.2,
    amountRefunded: 10,
    amountRemaining: 15.5,
    refundStatus: 'succeeded',
    tnxId: 'TNX6H2K9Q4W8R1T5Y3U7',
    refundedAt: '2026-11-25T10:00:00.412Z',
  };

  it('answers the refund event, told apart by `event`, and refuses a changed or half one', async () => {
    const body = JSON.stringify(refund);
    const event = await webhooks.verify(body, signatureHeader(storeKey, body), storeKey);
    expect(event).toEqual(refund);
    expect(event.event === 'refund.succeeded' ? event.amountRemaining : undefined).toBe(15.5);
    expect((await refusal(webhooks.verify(body.replace('15.5', '0'), signatureHeader(storeKey, body), storeKey))).code).toBe('signature_mismatch');
    const half = JSON.stringify({ ...refund, amountRemaining: undefined });
    expect((await refusal(webhooks.verify(half, signatureHeader(storeKey, half), storeKey))).code).toBe('payload_invalid');
  });
});

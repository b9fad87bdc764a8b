/*
 * The SDK snippets (install, create a payment, verify the callback) shown by the store's
 * Integration tab with the store's own ids and by the API reference (/v1/docs) with
 * placeholders: one text, so the two never disagree. README's "Take your first payment" runs
 * the same calls (apps/api/test/readme-first-payment.test.ts).
 */

export interface SdkSnippetValues {
  /** The Kestrel server's address, e.g. https://pay.example.org. */
  baseUrl: string;
  storeId: string;
  /** Where the snippet says the store key comes from (the key itself stays on the store's server). */
  storeKey: string;
  /** A store page to return to when the customer cancels. */
  cancelUrl: string;
}

export const SDK_INSTALL = `# The typed client is built from this Kestrel's repository (packages/sdk):
#   npm run sdk:build && npm pack -w packages/sdk   → kestrel-sdk-<version>.tgz
npm install ./kestrel-sdk-0.1.0.tgz`;

export function sdkCreateSnippet(values: SdkSnippetValues): string {
  return `import { Kestrel } from '@kestrel/sdk';

const kestrel = new Kestrel({
  baseUrl: '${values.baseUrl}',
  storeId: '${values.storeId}',
  storeKey: ${values.storeKey},
});

// Retries (network errors, 429, 503) reuse one Idempotency-Key: never a double payment.
const payment = await kestrel.payments.create({
  orderId: 'ORDER-1001', currency: 'USD', amount: 25.5,
  customerName: 'Carol Customer', customerEmail: 'carol@example.com',
  customerPhone: '+15550109999', customerAddress: '1 Market Street, Springfield',
  productName: 'Bike bell', cancelUrl: '${values.cancelUrl}',
});
// Send your customer to payment.redirectUrl (the hosted checkout).
// Errors are KestrelError { status, code, message, fields }.`;
}

export function sdkVerifySnippet(values: Pick<SdkSnippetValues, 'storeKey'>): string {
  return `import { webhooks } from '@kestrel/sdk';

// In your callback URL's handler; rawBody is the body exactly as received.
const event = await webhooks.verify(rawBody, request.headers['kestrel-signature'], ${values.storeKey});
if (event.paymentStatus === 'success') markOrderPaid(event.orderId, event.amount);

// The customer's return to the same URL (a GET with the fields in the query):
const returned = await webhooks.verifyRedirect(request.url, ${values.storeKey});
// Both throw KestrelSignatureError when the signature, key or time (±5 min) is wrong.`;
}

/** A refund (issue 23) with the SDK: the Integration tab and the API reference show it. */
export function sdkRefundSnippet(): string {
  return `// A full refund: omit amount. Partial: any amount up to what is left.
// Retries reuse one Idempotency-Key (required by the API): never a double refund.
const refund = await kestrel.refunds.create(payment.paymentId, { amount: 10, reason: 'Returned by the customer' });
// refund.status: 'succeeded' (or 'processing' while the card network answers);
// a refused card refund throws KestrelError { status: 402, code: 'refund_declined' }.
const refunds = await kestrel.refunds.list(payment.paymentId);

// Your callback URL also receives { event: 'refund.succeeded', refundId, paymentId, orderId,
// amount, fee, amountRefunded, amountRemaining, ... }, signed like the payment callback.`;
}

/** The same refund with curl. */
export function refundCurlSnippet(values: Pick<SdkSnippetValues, 'baseUrl' | 'storeId'> & { paymentId: string }): string {
  return `curl -X POST "${values.baseUrl}/v1/payment/refund/${values.paymentId}" \\
  -H "storeId: ${values.storeId}" -H "storeKey: $KESTREL_STORE_KEY" \\
  -H "Idempotency-Key: refund-order-1001-1" -H "content-type: application/json" \\
  -d '{"amount": 10, "reason": "Returned by the customer"}'`;
}

import { REFUND_CALLBACK_EVENT, STORE_SIGNATURE_HEADER } from '@kestrel/shared';

/** The store callback in the document's `webhooks` section (OpenAPI 3.1): what a store's server receives. */
export const storeCallbackWebhook = {
  post: {
    operationId: 'storeCallback',
    tags: ['Store API'],
    summary: "The signed payment callback Kestrel sends to the store's callbackURL",
    description:
      `Sent when a payment settles, retried with back-off until the store answers 2xx. Verify \`${STORE_SIGNATURE_HEADER}\` before trusting the body: ` +
      'it is `t=<unix seconds>,v1=<hex>`, where the hex is HMAC-SHA256 with the store key over `<t>.<raw body>`; refuse a timestamp far from now ' +
      "(`@kestrel/sdk`: `webhooks.verify(rawBody, header, storeKey)`). The customer's return address carries the same fields plus `timestamp` and `signature` " +
      'as query parameters, signed over the same JSON (`webhooks.verifyRedirect`).',
    security: [],
    parameters: [
      {
        in: 'header',
        name: STORE_SIGNATURE_HEADER,
        required: true,
        description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the store key>',
        schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
        example: 't=1764072000,v1=5c0b8e4f1d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4',
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/StoreCallbackEvent' },
          example: { paymentStatus: 'success', tnxId: 'b8d1f1e0-3c55-4d39-9a0e-0f0a6f7f2a11', currency: 'USD', amount: 25.5, orderId: 'order-1001', paymentId: '6f0c2a52-7a8f-4d0e-9a55-3c1f4b1b2e10' },
        },
      },
    },
    responses: {
      '200': { description: 'Any 2xx answer acknowledges the delivery' },
      '400': { description: 'The store refused it (a bad signature, say); Kestrel retries with back-off and shows the attempt in the store page' },
    },
  },
};

/** The refund callback: the same signature, another body (its `event` says which). */
export const storeRefundCallbackWebhook = {
  post: {
    operationId: 'storeRefundCallback',
    tags: ['Store API'],
    summary: "The signed refund callback Kestrel sends to the store's callbackURL",
    description:
      `Sent when a refund of one of the store's payments succeeds (event \`${REFUND_CALLBACK_EVENT}\`), signed and retried exactly like the payment callback. ` +
      'It carries this refund (`amount`, the `fee` returned with it) and the payment\'s totals after it (`amountRefunded`, `amountRemaining`). ' +
      '`@kestrel/sdk`: `webhooks.verify` answers it too; tell the two apart by `event`.',
    security: [],
    parameters: storeCallbackWebhook.post.parameters,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/StoreRefundCallbackEvent' },
          example: {
            event: REFUND_CALLBACK_EVENT,
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
          },
        },
      },
    },
    responses: storeCallbackWebhook.post.responses,
  },
};

export { Kestrel, type CallOptions, type CreatedPayment, type DirectPayRequest, type KestrelOptions, type Payment, type PaymentResult, type Refund, type RefundRequest, type WebPayRequest } from './client.ts';
export { KestrelError, KestrelSignatureError, type SignatureErrorCode } from './errors.ts';
export { SIGNATURE_HEADER, verify, verifyRedirect, webhooks, type KestrelEvent, type StoreCallbackEvent, type StoreRefundCallbackEvent, type VerifyOptions } from './webhooks.ts';
export type { components, paths, webhooks as WebhookTypes } from './generated/store-api.ts';

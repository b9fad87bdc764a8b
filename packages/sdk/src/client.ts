import createClient, { type Client } from 'openapi-fetch';
import { KestrelError } from './errors.ts';
import type { components, paths } from './generated/store-api.ts';
import { retryAfterMs, retryingFetch } from './transport.ts';
import { webhooks } from './webhooks.ts';

/*
 * The store API, typed from the API's own document (generated/store-api.ts). Every call sends
 * the store's headers; every creating call an Idempotency-Key (the caller's, or one made here
 * before the first attempt, so the transport's retries are safe); a non-success answer
 * becomes a KestrelError.
 */

type Schemas = components['schemas'];
export type WebPayRequest = Schemas['WebPayRequest'];
export type DirectPayRequest = Schemas['DirectPayRequest'];
export type Payment = Schemas['Payment'];
export type PaymentResult = Schemas['PaymentResult'];
export type Refund = Schemas['Refund'];
export type RefundRequest = Schemas['RefundBody'];
/** A created payment: the checkout address to send the customer to, and the payment. */
export type CreatedPayment = Schemas['WebPayAnswer']['data'] & { redirectUrl: string };

export interface KestrelOptions {
  storeId: string;
  storeKey: string;
  /** The Kestrel server, e.g. https://pay.example.org (no trailing /v1). */
  baseUrl: string;
  /** Per attempt; default 15 000 ms. */
  timeoutMs?: number;
  /** Retries on network errors, timeouts, 429 and 503; default 2. */
  maxRetries?: number;
  /** The first back-off before a retry, doubled each time; default 300 ms. */
  backoffMs?: number;
  /** Another fetch (tests, proxies); default globalThis.fetch. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Reuse one key for one intended payment: a repeat answers the first result. Made here when absent. */
  idempotencyKey?: string;
}

interface ErrorBody {
  error?: string;
  code?: string;
  fields?: Record<string, string>;
}

async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const body = (error ?? {}) as ErrorBody;
  throw new KestrelError({
    status: response.status,
    code: body.code ?? `http_${response.status}`,
    message: body.error ?? `Kestrel answered ${response.status} ${response.statusText}`,
    fields: body.fields,
    retryAfterSeconds: (() => {
      const ms = retryAfterMs(response.headers.get('retry-after'));
      return ms === undefined ? undefined : Math.ceil(ms / 1000);
    })(),
  });
}

const newKey = () => globalThis.crypto.randomUUID();

export class Kestrel {
  readonly #client: Client<paths>;

  constructor(options: KestrelOptions) {
    if (!options.storeId || !options.storeKey) throw new TypeError('new Kestrel({ storeId, storeKey, baseUrl }): the store id and key are required');
    if (!/^https?:\/\//.test(options.baseUrl)) throw new TypeError('new Kestrel({ baseUrl }): an http(s) address of the Kestrel server');
    const transport = retryingFetch({
      timeoutMs: options.timeoutMs ?? 15_000,
      maxRetries: options.maxRetries ?? 2,
      backoffMs: options.backoffMs ?? 300,
      maxRetryAfterMs: 30_000,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    this.#client = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: transport,
      headers: { storeId: options.storeId, storeKey: options.storeKey, accept: 'application/json' },
    });
  }

  readonly payments = {
    /** Creates a payment; send the customer to `redirectUrl` (the hosted checkout). */
    create: async (body: WebPayRequest, options: CallOptions = {}): Promise<CreatedPayment> => {
      const answer = await unwrap(this.#client.POST('/v1/payment/web-pay', { body, params: { header: { 'Idempotency-Key': options.idempotencyKey ?? newKey() } } }));
      return { ...answer.data, redirectUrl: answer.redirectUrl };
    },
    /**
     * The redirect route (POST /v1/payment/web-pay/redirect), asked for JSON: a server that
     * answers its customer's form with its own 303 uses `redirectUrl`.
     */
    createRedirect: async (body: WebPayRequest, options: CallOptions = {}): Promise<CreatedPayment> => {
      const answer = await unwrap(
        this.#client.POST('/v1/payment/web-pay/redirect', { body, params: { header: { 'Idempotency-Key': options.idempotencyKey ?? newKey() } }, parseAs: 'json' }),
      );
      const json = answer as Schemas['WebPayAnswer'];
      return { ...json.data, redirectUrl: json.redirectUrl };
    },
    /** Charges a card server to server; a declined card is a KestrelError with status 402. */
    completeDirect: async (body: DirectPayRequest, options: CallOptions = {}): Promise<PaymentResult> => {
      const answer = await unwrap(
        this.#client.POST('/v1/payment/web-pay/complete/direct', { body, params: { header: { 'Idempotency-Key': options.idempotencyKey ?? newKey() } } }),
      );
      return answer.data;
    },
    /** One of the store's payments (another store's is a 404 KestrelError). */
    retrieve: async (paymentId: string): Promise<Payment> => {
      const answer = await unwrap(this.#client.GET('/v1/payment/paymentId/{paymentId}', { params: { path: { paymentId } } }));
      return answer.data;
    },
  };

  readonly refunds = {
    /**
     * Refunds a payment of the store, in full (no `amount`) or in part (`amount` up to what is
     * left). Answers the refund: 'succeeded', or 'processing' while the card network answers.
     * A refused card refund is a KestrelError with status 402 (`refund_declined`); too much, an
     * unpaid payment or an owner balance that cannot cover it, 409.
     */
    create: async (paymentId: string, body: RefundRequest = {}, options: CallOptions = {}): Promise<Refund> => {
      const answer = await unwrap(
        this.#client.POST('/v1/payment/refund/{paymentId}', { body, params: { path: { paymentId }, header: { 'Idempotency-Key': options.idempotencyKey ?? newKey() } } }),
      );
      return answer.data;
    },
    /** A payment's refunds, newest first. */
    list: async (paymentId: string): Promise<Refund[]> => {
      const answer = await unwrap(this.#client.GET('/v1/payment/refunds/{paymentId}', { params: { path: { paymentId } } }));
      return answer.data;
    },
  };

  /** The callback and return-address verifiers (also exported on their own as `webhooks`). */
  readonly webhooks = webhooks;
}

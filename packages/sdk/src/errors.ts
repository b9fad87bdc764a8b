/** An answer of the Kestrel API that is not a success, or a call that never got one. */
export class KestrelError extends Error {
  override readonly name = 'KestrelError';
  /** The HTTP status; 0 when no answer came (network error, timeout). */
  readonly status: number;
  /** The API's error code (`validation_failed`, `card_declined`, …), or `network_error` / `timeout`. */
  readonly code: string;
  /** Per-field messages of a 400, keyed like the request's fields (`customerEmail`, `billingInfo.name`). */
  readonly fields: Record<string, string>;
  /** Seconds the API asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: { status: number; code: string; message: string; fields?: Record<string, string>; retryAfterSeconds?: number; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Why a callback or a signed return address was refused. */
export type SignatureErrorCode = 'signature_missing' | 'signature_malformed' | 'signature_mismatch' | 'timestamp_outside_tolerance' | 'payload_invalid';

/** A callback or return address that is not provably from Kestrel: do not act on it. */
export class KestrelSignatureError extends Error {
  override readonly name = 'KestrelSignatureError';
  constructor(
    readonly code: SignatureErrorCode,
    message: string,
  ) {
    super(message);
  }
}

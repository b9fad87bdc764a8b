import type * as Contracts from '@kestrel/shared';
import type { z } from 'zod';
import { readCookie, COOKIE_NAMES } from './cookies.ts';
import { takeEarlyFetch } from './early-fetch.ts';

/**
 * The one way the web app talks to the Kestrel API (same origin: /v1, /data/v1).
 *
 * - Sends JSON, and the raw access token as `Authorization: <token>` (the spec's form)
 *   unless `auth: false`.
 * - Unwraps the envelope `{ status: 'success', message?, data }`; `data` is typed by the
 *   route's response schema from `@kestrel/shared`'s contracts. In development every answer
 *   is also checked against that schema and drift is logged loudly (console.error), so a
 *   server change that breaks the client shows up at once instead of as `undefined` later.
 * - Throws `ApiError` for everything else, so callers handle one error type.
 */

export interface ApiResult<T> {
  data: T;
  /** The envelope's optional human-readable message (e.g. 'Verification mail sent'). */
  message: string | undefined;
  /** The HTTP status (200, 201, ...). */
  status: number;
  /** The envelope's other top-level fields (e.g. the gateway's `redirectUrl` beside `data`). */
  extra: Readonly<Record<string, unknown>>;
}

export class ApiError extends Error {
  /** HTTP status; 0 when no answer arrived (network failure, aborted). */
  readonly status: number;
  /** The server's snake_case code, or a client one: 'network_error', 'invalid_response'. */
  readonly code: string;
  /** Per-field messages of a validation error, keyed by the request's field names. */
  readonly fields: Readonly<Record<string, string>> | undefined;
  /** True when `message` is the server's readable `error` text, fit to show as is. */
  readonly fromServer: boolean;

  constructor(init: { status: number; code: string; message: string; fields?: Record<string, string>; fromServer: boolean }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.fromServer = init.fromServer;
  }
}

/** No answer (network) or a server fault: the request may have gone through, so a money form says sending it again is safe. */
export function isUnsureFailure(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

/** A wrong TPIN, or the TPIN locked after too many (423): the money form clears the TPIN and puts the cursor there. */
export const isTpinRefusal = (error: ApiError): boolean => error.code === 'tpin_incorrect' || error.status === 423;

/** The server's message when there is one, else the caller's fallback (the spec's 'X failed!' texts). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer && error.message ? error.message : fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** Send the access token cookie (default true). Login, sign-up and public pages pass false. */
  auth?: boolean;
  /** Use this token instead of the cookie (e.g. right after login, before cookies are written). */
  token?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The answer already in hand (a GET the server answered into a server-rendered page): read instead of fetching. */
  answer?: Response;
}

type Listener = () => void;
const sessionRejectedListeners = new Set<Listener>();

/**
 * Called when the server answers 401 to a request that carried a token: the session is
 * over (expired, revoked, logged out elsewhere). The app signs the user out.
 */
export function onSessionRejected(listener: Listener): () => void {
  sessionRejectedListeners.add(listener);
  return () => {
    sessionRejectedListeners.delete(listener);
  };
}

interface SuccessEnvelope {
  status: 'success';
  message?: string;
  data: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSuccessEnvelope(value: unknown): value is SuccessEnvelope {
  return isRecord(value) && value.status === 'success' && 'data' in value;
}

/** The error envelope `{ status: 'error', error, code, fields? }` (contracts/common.ts), checked by hand so no page downloads zod for it. */
function isErrorEnvelope(value: unknown): value is Contracts.ErrorBody {
  return isRecord(value) && value.status === 'error' && typeof value.error === 'string' && typeof value.code === 'string' && (value.fields === undefined || isRecord(value.fields));
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return Object.fromEntries(entries);
}

/**
 * A response contract: the zod schema of the route's `data`, or a function that picks it
 * from the contracts (`(contracts) => contracts.checkoutView`). The function form is looked
 * up in development only, so a page that must stay small (the checkout) downloads neither
 * the contracts nor zod for a check that production skips anyway.
 */
export type ResponseSchema<T> = z.ZodType<T> | ((contracts: typeof Contracts) => z.ZodType<T>);

function reportDrift(path: string, schema: z.ZodType, data: unknown): void {
  const result = schema.safeParse(data);
  if (!result.success) console.error(`[contract drift] ${path} answered data that does not match its response schema`, result.error.issues, data);
}

/**
 * In development, checks `data` against the route's contract and reports drift loudly. In
 * production the check is skipped (the server's serializer already enforces the same
 * schema) and the data is passed on as typed.
 */
function checkedData<T>(path: string, schema: ResponseSchema<T>, data: unknown): T {
  if (import.meta.env.DEV) {
    if (typeof schema === 'function') void import('@kestrel/shared').then((contracts) => reportDrift(path, schema(contracts), data));
    else reportDrift(path, schema, data);
  }
  // The data itself is handed on as it came, so development and production behave alike.
  return data as T;
}

interface ReadBody {
  json: unknown;
  /** A short plain-text answer (Content-Type text/plain), e.g. from a proxy in front of the API. */
  plainText: string | undefined;
}

/** Longest plain-text error shown as it came; longer ones are not a message meant for people. */
const PLAIN_TEXT_MESSAGE_MAX = 300;

async function readBody(response: Response): Promise<ReadBody> {
  const text = await response.text();
  if (!text) return { json: undefined, plainText: undefined };
  try {
    return { json: JSON.parse(text), plainText: undefined };
  } catch {
    const plain = (response.headers.get('content-type') ?? '').startsWith('text/plain') ? text.trim() : '';
    // Markup labelled as text (an error page) is not a message either.
    const readable = plain && plain.length <= PLAIN_TEXT_MESSAGE_MAX && !plain.startsWith('<');
    return { json: undefined, plainText: readable ? plain : undefined };
  }
}

/**
 * The error of a failed answer: the error envelope's message; else a short plain-text answer
 * as it came (the spec's "else a plain error"); else a generic one, so callers show their own
 * fallback text (an HTML error page is never shown to people).
 */
function failedAnswer(response: Response, { json, plainText }: ReadBody): ApiError {
  if (isErrorEnvelope(json)) {
    return new ApiError({ status: response.status, code: json.code, message: json.error, fields: stringRecord(json.fields), fromServer: true });
  }
  if (plainText) return new ApiError({ status: response.status, code: 'plain_error', message: plainText, fromServer: true });
  return new ApiError({ status: response.status, code: 'invalid_response', message: `The server answered ${response.status}.`, fromServer: false });
}

export async function request<T>(path: string, schema: ResponseSchema<T>, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const { method = 'GET', body, auth = true, signal } = options;
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');

  const token = options.token ?? (auth ? readCookie(COOKIE_NAMES.accessToken) : undefined);
  if (token) headers.set('Authorization', token);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    // A read the entry already started with this token, or none (lib/early-fetch.ts), is taken, not asked again.
    const early = options.answer ?? (method === 'GET' ? takeEarlyFetch(path, token) : undefined);
    response = await (early ?? fetch(path, { method, headers, body: payload, signal, credentials: 'same-origin' }));
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: 'The server could not be reached.', fromServer: false });
  }

  const answer = await readBody(response);
  const json = answer.json;

  if (response.ok) {
    if (isSuccessEnvelope(json)) {
      const { status: _status, message: _message, data: _data, ...extra } = json as SuccessEnvelope & Record<string, unknown>;
      return { data: checkedData(path, schema, json.data), message: json.message, status: response.status, extra };
    }
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      message: 'The server sent an unexpected answer.',
      fromServer: false,
    });
  }

  if (response.status === 401 && token) {
    for (const listener of sessionRejectedListeners) listener();
  }
  throw failedAnswer(response, answer);
}

/**
 * GET a binary resource that needs the Authorization header (e.g. an identity image, which
 * an <img src> could not fetch with the token). Errors are the same `ApiError`s as JSON calls.
 */
export async function requestBlob(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Blob> {
  const { auth = true, signal } = options;
  const headers = new Headers(options.headers);
  const token = options.token ?? (auth ? readCookie(COOKIE_NAMES.accessToken) : undefined);
  if (token) headers.set('Authorization', token);

  let response: Response;
  try {
    response = await fetch(path, { headers, signal, credentials: 'same-origin' });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: 'The server could not be reached.', fromServer: false });
  }
  if (response.ok) return response.blob();

  if (response.status === 401 && token) {
    for (const listener of sessionRejectedListeners) listener();
  }
  throw failedAnswer(response, await readBody(response));
}

type NoBodyOptions = Omit<RequestOptions, 'method' | 'body'>;

/**
 * Shorthands, each with the route's response schema from the contracts:
 * `http.get('/v1/user/123', userProfile)`, `http.post('/v1/auth/login', body, loginResult, { auth: false })`.
 */
export const http = {
  get: <T>(path: string, schema: ResponseSchema<T>, options?: NoBodyOptions) => request(path, schema, { ...options, method: 'GET' }),
  post: <T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: NoBodyOptions) =>
    request(path, schema, { ...options, method: 'POST', body }),
  put: <T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: NoBodyOptions) =>
    request(path, schema, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: NoBodyOptions) =>
    request(path, schema, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, schema: ResponseSchema<T>, options?: NoBodyOptions) => request(path, schema, { ...options, method: 'DELETE' }),
  blob: (path: string, options?: NoBodyOptions) => requestBlob(path, options),
};

/** Encodes one path segment: `/v1/user/${segment(userId)}`. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

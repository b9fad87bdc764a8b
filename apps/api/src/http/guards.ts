import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { refuse } from './refusals.ts';

/*
 * Authorisation in one room. Every route either names a guard as its `onRequest` hook (or the
 * first of its onRequest hooks) or is listed in PUBLIC_ROUTES; guards.test.ts walks the route
 * table and fails otherwise.
 *
 * Guards run in `onRequest`, before Fastify parses and validates the body, query and
 * params: a stranger learns nothing about a guarded route's body rules (a 400 naming a
 * field) and gets 401 (anonymous) or 404 (not an operator) whatever they send. A
 * `preHandler` would run after validation.
 *
 * A guard is an async hook made with `defineGuard(kind, check)`, which marks it so the
 * route-table test (and anyone reading a route) can tell it is a guard and which one. A new
 * kind of caller (the gateway's `requireStoreKey`, for example) is one more
 * `defineGuard('storeKey', ...)` in its module plus its kind in GuardKind; it then counts
 * as guarded everywhere without touching this file's other guards.
 *
 * The guards learn about callers only through `request.server.ctx.callers` (set up in
 * app.ts), so `http/` never imports a feature module.
 */

export type GuardKind = 'user' | 'operator' | 'storeKey' | 'storeKeyOrUser';

const GUARD_KIND = Symbol('kestrel.guard');

export type Guard = ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) & { readonly [GUARD_KIND]: GuardKind };

/** Marks `check` as a route guard of this kind. */
export function defineGuard(kind: GuardKind, check: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): Guard {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => check(request, reply);
  return Object.assign(guard, { [GUARD_KIND]: kind }) as Guard;
}

/** The guard kind of a hook, or undefined when it is not a guard. */
export function guardKindOf(handler: unknown): GuardKind | undefined {
  return typeof handler === 'function' && GUARD_KIND in handler ? (handler as Guard)[GUARD_KIND] : undefined;
}

/** Reads `Authorization: <token>` (the spec's raw form) or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const token = /^bearer\s+/i.test(trimmed) ? trimmed.replace(/^bearer\s+/i, '') : trimmed;
  return token.length > 0 && token.length <= 200 ? token : undefined;
}

async function authenticateUser(request: FastifyRequest): Promise<void> {
  const token = tokenFromHeader(request.headers.authorization);
  if (!token) throw refuse('unauthorized');
  const session = await request.server.ctx.callers.findSession(token);
  if (!session) throw refuse('session_expired');
  request.auth = { userId: session.userId, sessionId: session.id };
}

/**
 * A signed-in user. The caller is always taken from the token; the server never
 * authenticates from cookies, so there is no CSRF surface.
 */
export const requireUser = defineGuard('user', authenticateUser);

/**
 * A signed-in operator. A request without a live session gets the usual 401; a signed-in
 * user who is not an operator gets the 404 an unknown route would get.
 */
export const requireOperator = defineGuard('operator', async (request) => {
  await authenticateUser(request);
  if (!(await request.server.ctx.callers.isOperator(callerId(request)))) throw refuse('not_found');
});

/** The signed-in user's id; only call behind `requireUser` or `requireOperator`. */
export function callerId(request: FastifyRequest): string {
  if (!request.auth) throw refuse('unauthorized');
  return request.auth.userId;
}

/**
 * Routes anyone may call, by method and URL (a trailing `*` matches any rest). Everything
 * else must be guarded. Keep this list short and say why each entry is public.
 */
export const PUBLIC_ROUTES: readonly string[] = [
  'POST /v1/auth/login', // signing in is how one gets a token
  'POST /v1/auth/login/second-step', // the password step's challenge (256 random bits, single use, 5 minutes) plus a code is the credential
  'POST /v1/auth/login/passkey/options', // starting a passwordless sign-in: only a single-use, 5-minute challenge, throttled per address
  'POST /v1/auth/login/passkey', // the passkey's signature over a challenge this server made is the credential; throttled like passwords
  'POST /v1/user/register', // signing up, likewise
  'POST /v1/user/verify-email', // the mailed link works without a session
  'POST /v1/auth/forgot-password', // someone who forgot the password has no session; answers alike for any address, throttled
  'POST /v1/auth/reset-password', // the mailed reset link (256 random bits, single-use, 30 minutes) is the capability
  'GET /v1/config', // the web app's public settings (marketing site address)
  'GET /v1/ledger/seals', // the ledger's seals and seal key are published so that anyone can check a proof
  'GET /v1/openapi.json', // the API reference
  'GET /v1/docs*', // the API reference's pages and assets
  'GET /healthz', // process up (load balancers)
  'GET /readyz', // database reachable (load balancers)
  'GET /data/v1/countries', // the spec's public data host: the country list (invoices there need a token)
  'GET /v1/store-logos/:name', // store logos are public: the hosted checkout shows them to any visitor
  'POST /v1/payment/complete/:paymentId', // the hosted checkout's card payment, made by an anonymous visitor
  'GET /dev/mailbox*', // the development outbox; not registered in production
  'GET /dev/store-callbacks*', // the demo store's callback listener (development only): what it received
  'POST /dev/store-callbacks', // ... and where the demo store's callbacks are delivered
  'GET /v1/payment/:urlId', // the checkout's view of a payment: the urlId (128 random bits) is the capability
  'GET /v1/payment-request/link/:pRequestURLId', // a link's public pay page: the pRequestURLId (128 random bits) is the capability
  'POST /v1/payment-request/card/complete-payment/:pRequestURLId', // a link's card payment, made by an anonymous visitor
];

function matchesPublic(method: string, url: string): boolean {
  return PUBLIC_ROUTES.some((entry) => {
    const [entryMethod, pattern = ''] = entry.split(' ');
    const methodOk = entryMethod === method || (entryMethod === 'GET' && method === 'HEAD');
    if (!methodOk) return false;
    return pattern.endsWith('*') ? url.startsWith(pattern.slice(0, -1)) : url === pattern;
  });
}

/** What the route-table check says about one route: its guard kind, 'public', or 'unguarded'. */
export function routeProtection(route: Pick<RouteOptions, 'method' | 'url' | 'onRequest'>): GuardKind | 'public' | 'unguarded' {
  const handlers = Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
  // The guard must be the first onRequest hook: a hook before it would see an unauthenticated
  // request. A guard as a preHandler does not count: it would run after validation.
  const kind = guardKindOf(handlers[0]);
  if (kind) return kind;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.every((method) => matchesPublic(method, route.url)) ? 'public' : 'unguarded';
}

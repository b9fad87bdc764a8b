import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuse } from './refusals.ts';

export const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/** True when a string anywhere inside a parsed body, query or path holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Raw bodies (Buffers) are bytes, not text; they never reach a text column as they are.
  if (depth > 32 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/** API and data-host answers may carry personal data; the API reference does not. */
function isPrivatePath(url: string): boolean {
  return /^\/(v1|data|dev)\//.test(url) && !/^\/v1\/(docs|openapi\.json)/.test(url);
}

/**
 * Guards every route in one place:
 * - PostgreSQL refuses U+0000 in text, so a NUL byte in a body, query or path parameter is
 *   answered 400 here instead of failing deep inside a query with a 500.
 * - Answers to signed-in callers (and every other API answer that has not chosen its own
 *   caching) are `Cache-Control: no-store`: balances, identity images and tokens must not
 *   stay in a browser or proxy cache.
 */
export function registerHardening(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw refuse('nul_character', { message: NUL_MESSAGE });
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.auth || (isPrivatePath(request.url) && !reply.hasHeader('cache-control'))) reply.header('cache-control', 'no-store');
    return payload;
  });
}

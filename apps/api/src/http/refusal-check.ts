import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@kestrel/shared';
import { answeredRefusal } from './errors.ts';
import { declaredRefusals, UNIVERSAL_REFUSALS } from './refusals.ts';

/*
 * In tests (NODE_ENV=test) every refusal is checked against the codes its route declared with
 * `refusals(...)`: an answer with a code the route did not declare (nor a universal one) is
 * turned into a 500 that names the route and the code, and noted for the suite's setup file,
 * which fails the test file. So the whole API suite keeps the declarations, and the reference
 * derived from them, true to what the code raises.
 */

const undeclared = new Set<string>();

export function registerRefusalCheck(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const refusal = answeredRefusal.get(request);
    const url = request.routeOptions.url;
    if (!refusal || !url || UNIVERSAL_REFUSALS.includes(refusal)) return payload;
    if (declaredRefusals(request.routeOptions.schema?.response).includes(refusal)) return payload;
    const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${url}`;
    undeclared.add(`${route} raised ${refusal}`);
    reply.status(500).header('content-type', 'application/json; charset=utf-8').removeHeader('retry-after');
    const body: ErrorBody = {
      status: 'error',
      error: `${route} raised the refusal '${refusal}', which the route does not declare: add it to the route's refusals(...)`,
      code: 'undeclared_refusal',
    };
    return JSON.stringify(body);
  });
}

/** The undeclared refusals answered since the last call; forgets them. */
export function takeUndeclaredRefusals(): string[] {
  const found = [...undeclared].sort();
  undeclared.clear();
  return found;
}

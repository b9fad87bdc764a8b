import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages, type ErrorBody } from '@kestrel/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { Refusal, statusOf, type RefusalCode } from './refusals.ts';

/** The refusal each request was answered with (read by the test-time check of declared codes). */
export const answeredRefusal = new WeakMap<object, RefusalCode>();

export type { ErrorBody };

/** Turns "/address/city" into "address.city", the field key the forms use. */
function fieldKey(instancePath: string, missingProperty?: unknown): string {
  const base = instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (typeof missingProperty === 'string') return base ? `${base}.${missingProperty}` : missingProperty;
  return base || '_';
}

/** Retry-After on a 503 database_unavailable: a restarting PostgreSQL is usually back within seconds. */
export const databaseRetryAfterSeconds = 1;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
    if (error instanceof Refusal) {
      // The status is the table's (refusals.ts), never the raiser's.
      const body: ErrorBody = { status: 'error', error: error.message, code: error.code };
      if (error.fields) body.fields = error.fields;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      answeredRefusal.set(request, error.refusal);
      return reply.status(statusOf(error.refusal)).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = fieldKey(issue.instancePath, (issue.params as { missingProperty?: unknown } | undefined)?.missingProperty);
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      const first = Object.values(fields)[0] ?? 'Invalid request';
      return reply.status(400).send({ status: 'error', error: first, code: 'validation_failed', fields } satisfies ErrorBody);
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode === 429) {
      return reply.status(429).send({ status: 'error', error: messages.generic.tooManyRequests, code: 'rate_limited' } satisfies ErrorBody);
    }
    if (statusCode >= 400 && statusCode < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type).
      return reply
        .status(statusCode)
        .send({ status: 'error', error: error.message, code: (error.code ?? 'bad_request').toLowerCase() } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      // Unreachable, dropped or timed out: nothing to fix in the request. A money movement whose
      // commit may have happened is safe to retry with the same Idempotency-Key.
      request.log.warn({ error: error.message, code: error.code }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(databaseRetryAfterSeconds))
        .send({ status: 'error', error: messages.generic.databaseUnavailable, code: 'database_unavailable' } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ status: 'error', error: messages.generic.internal, code: 'internal_error' } satisfies ErrorBody);
  });

}

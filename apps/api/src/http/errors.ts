import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages, type ErrorBody } from '@kestrel/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * The one error type of the API. Services throw it; the handler below turns it into
 * `{ status: 'error', error, code, fields? }` with the right HTTP status.
 */
export class AppError extends Error {
  /** Sent as Retry-After (a 429 of a progressive delay says when to come back). */
  retryAfterSeconds?: number;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>, code = 'invalid_request') =>
  new AppError(400, code, message, fields);
export const unauthorized = (message: string = messages.auth.unauthorized, code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message: string = messages.auth.forbidden, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message: string = messages.generic.notFound, code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict', fields?: Record<string, string>) =>
  new AppError(409, code, message, fields);
export const unprocessable = (message: string, code = 'unprocessable') => new AppError(422, code, message);
export const tooManyRequests = (message: string = messages.generic.tooManyRequests, code = 'rate_limited') =>
  new AppError(429, code, message);

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
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = { status: 'error', error: error.message, code: error.code };
      if (error.fields) body.fields = error.fields;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send(body);
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

import type { FastifyReply, FastifyRequest } from 'fastify';
import { findLiveSession } from '../modules/auth/sessions.repository.ts';
import { unauthorized } from './errors.ts';

/** Reads `Authorization: <token>` (the spec's raw form) or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const token = /^bearer\s+/i.test(trimmed) ? trimmed.replace(/^bearer\s+/i, '') : trimmed;
  return token.length > 0 && token.length <= 200 ? token : undefined;
}

/**
 * Pre-handler for signed-in routes. The caller is always taken from the token; the server
 * never authenticates from cookies, so there is no CSRF surface.
 */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = tokenFromHeader(request.headers.authorization);
  if (!token) throw unauthorized();
  const session = await findLiveSession(request.server.ctx.db, token);
  if (!session) throw unauthorized('Your session has expired. Please log in again.', 'session_expired');
  request.auth = { userId: session.userId, sessionId: session.id };
}

/** The signed-in user's id; only call behind `authenticate`. */
export function callerId(request: FastifyRequest): string {
  if (!request.auth) throw unauthorized();
  return request.auth.userId;
}

import type { FastifyRequest } from 'fastify';

/** The caller's address as Fastify resolved it (honours trustProxy when configured). */
export function clientIp(request: FastifyRequest): string {
  return request.ip || 'unknown';
}

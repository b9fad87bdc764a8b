import { loginBody, loginResult, noData } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { unauthorized } from '../../http/errors.ts';
import { login, logout } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        security: [],
        body: loginBody,
        response: { 200: successEnvelope(loginResult) },
      },
    },
    async (request) => ok(await login(app.ctx, request.body, clientIp(request), request.headers['user-agent'])),
  );

  app.post(
    '/auth/logout',
    {
      preHandler: requireUser,
      schema: { tags: ['auth'], summary: 'Revoke the session behind the token', response: { 200: successEnvelope(noData) } },
    },
    async (request) => {
      if (!request.auth) throw unauthorized();
      await logout(app.ctx, request.auth.userId, request.auth.sessionId, clientIp(request));
      return ok(null, 'Logged out');
    },
  );
};

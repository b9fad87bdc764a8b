import { forgotPasswordBody, loginBody, loginResult, messages, noData, resetPasswordBody } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { unauthorized } from '../../http/errors.ts';
import { login, logout } from './auth.service.ts';
import { readKnownDevice } from './device-cookie.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';

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
    async (request, reply) => {
      const knownDevice = readKnownDevice(app.ctx.config.secretKey, request.headers.cookie);
      const { result, deviceCookie } = await login(app.ctx, request.body, { ip: clientIp(request), userAgent: request.headers['user-agent'], knownDevice });
      reply.header('set-cookie', deviceCookie);
      return ok(result);
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: 'Revoke the session behind the token', response: { 200: successEnvelope(noData) } },
    },
    async (request) => {
      if (!request.auth) throw unauthorized();
      await logout(app.ctx, request.auth.userId, request.auth.sessionId, clientIp(request));
      return ok(null, 'Logged out');
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link (the same answer whether or not the address has an account)',
        security: [],
        body: forgotPasswordBody,
        response: { 200: successEnvelope(noData) },
      },
    },
    async (request) => {
      await requestPasswordReset(app.ctx, request.body, clientIp(request));
      return ok(null, messages.passwordReset.requested);
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset link; ends every session of the account',
        security: [],
        body: resetPasswordBody,
        response: { 200: successEnvelope(noData) },
      },
    },
    async (request) => {
      await resetPassword(app.ctx, request.body, clientIp(request));
      return ok(null, messages.passwordReset.done);
    },
  );
};

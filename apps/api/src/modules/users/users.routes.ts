import { messages, noData, registerBody, registerResult, sendVerificationBody, userParams, userProfile, verifyEmailBody } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerId, requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { refuse, Refusal } from '../../http/refusals.ts';
import { getUserProfile, registerUser, resendVerification } from './users.service.ts';
import { verifyEmailToken } from './verification.service.ts';
import { refusals } from '../../http/refusals.ts';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/user/register',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: {
        tags: ['users'],
        summary: 'Sign up; answers a session token so the new user is signed in',
        body: registerBody,
        response: { 201: successEnvelope(registerResult), ...refusals('email_taken', 'phone_taken') },
      },
    },
    async (request, reply) => {
      const result = await registerUser(app.ctx, request.body, clientIp(request), request.headers['user-agent']);
      // The account exists either way; the client shows this message and carries on.
      const message = result.mailSent ? messages.signup.success : messages.signup.mailFailed;
      return reply.status(201).send(ok({ _id: result.userId, token: result.token }, message));
    },
  );

  app.get(
    '/user/:userId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['users'],
        summary: 'The signed-in user with their accounts',
        params: userParams,
        response: { 200: successEnvelope(userProfile), ...refusals('not_found') },
      },
    },
    async (request) => ok(await getUserProfile(app.ctx, callerId(request), request.params.userId)),
  );

  app.post(
    '/user/send-verification-code',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: {
        tags: ['users'],
        summary: 'Mail a new e-mail verification link',
        body: sendVerificationBody,
        response: { 200: successEnvelope(noData), ...refusals('already_verified', 'mail_failed', 'not_found') },
      },
    },
    async (request) => {
      try {
        await resendVerification(app.ctx, callerId(request), request.body.email);
      } catch (error) {
        if (error instanceof Refusal) throw error;
        request.log.warn({ err: error }, 'verification mail failed');
        throw refuse('mail_failed');
      }
      return ok(null, messages.verification.sent);
    },
  );

  app.post(
    '/user/verify-email',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags: ['users'],
        summary: 'Spend a verification link token and mark the e-mail verified',
        body: verifyEmailBody,
        response: { 200: successEnvelope(noData), ...refusals('verification_link_invalid') },
      },
    },
    async (request) => {
      await verifyEmailToken(app.ctx, request.body.token);
      return ok(null, messages.verification.verified);
    },
  );
};

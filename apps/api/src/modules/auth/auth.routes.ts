import {
  passkeyCreationOptions,
  passkeyIdParams,
  passkeyList,
  passkeyMessages,
  passkeyOptionsBody,
  passkeyRegisterBody,
  passkeyRemoveBody,
  passkeyRenameBody,
  passkeyRequestOptions,
  passkeySignInBody,
  passkeyView,
} from '@kestrel/shared';
import { forgotPasswordBody, loginAnswer, loginBody, loginResult, loginSecondStepBody, messages, twoFactorCodeBody, twoFactorEnableBody, twoFactorMessages, twoFactorEnabled, twoFactorSetup, twoFactorSetupBody, twoFactorStatus, noData, resetPasswordBody, sessionIdParams, sessionList, sessionMessages, signedOutOthers } from '@kestrel/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/guards.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { refuse, refusals } from '../../http/refusals.ts';
import { login, loginSecondStep, logout, passkeySignIn } from './auth.service.ts';
import { listPasskeys, passkeyConfirmOptions, passkeyRegistrationOptions, passkeySignInOptions, registerPasskey, removePasskey, renamePasskey } from './passkeys.service.ts';
import { readKnownDevice } from './device-cookie.ts';
import { listDevices, signOutDevice, signOutOtherDevices, type Caller } from './devices.service.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';
import { disableTwoFactor, enableTwoFactor, renewRecoveryCodes, startTwoFactorSetup, twoFactorStatus as readTwoFactorStatus } from './two-factor.service.ts';

/** The signed-in caller of a guarded route (requireUser ran first). */
function callerOf(request: FastifyRequest): Caller {
  if (!request.auth) throw refuse('unauthorized');
  return { userId: request.auth.userId, sessionId: request.auth.sessionId, ip: clientIp(request) };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password (with two-factor sign-in on: a challenge for the second step, no session)',
        security: [],
        body: loginBody,
        response: { 200: successEnvelope(loginAnswer), ...refusals('invalid_credentials', 'login_rate_limited') },
      },
    },
    async (request, reply) => {
      const knownDevice = readKnownDevice(app.ctx.config.secretKey, request.headers.cookie);
      const { result, deviceCookie } = await login(app.ctx, request.body, { ip: clientIp(request), userAgent: request.headers['user-agent'], knownDevice });
      if (deviceCookie) reply.header('set-cookie', deviceCookie);
      return ok(result);
    },
  );

  app.post(
    '/auth/login/second-step',
    {
      schema: {
        tags: ['auth'],
        summary: "Finish a sign-in with two-factor sign-in on: the password step's challenge and a code from the app (or a recovery code)",
        security: [],
        body: loginSecondStepBody,
        response: { 200: successEnvelope(loginResult), ...refusals('login_challenge_invalid', 'login_recovery_code_invalid', 'login_second_factor_invalid', 'login_second_factor_reused', 'login_passkey_invalid', 'login_passkey_counter_stale', 'second_factor_rate_limited') },
      },
    },
    async (request, reply) => {
      const knownDevice = readKnownDevice(app.ctx.config.secretKey, request.headers.cookie);
      const { result, deviceCookie } = await loginSecondStep(app.ctx, request.body, { ip: clientIp(request), userAgent: request.headers['user-agent'], knownDevice });
      reply.header('set-cookie', deviceCookie);
      return ok(result);
    },
  );

  app.post(
    '/auth/login/passkey/options',
    {
      schema: { tags: ['auth'], summary: 'Start signing in with a passkey: the options for navigator.credentials.get (a single-use challenge)', security: [], response: { 200: successEnvelope(passkeyRequestOptions), ...refusals('passkey_rate_limited') } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await passkeySignInOptions(app.ctx, clientIp(request)));
    },
  );

  app.post(
    '/auth/login/passkey',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey, without the password',
        security: [],
        body: passkeySignInBody,
        response: { 200: successEnvelope(loginResult), ...refusals('login_passkey_challenge_invalid', 'login_passkey_invalid', 'login_passkey_counter_stale', 'second_factor_rate_limited') },
      },
    },
    async (request, reply) => {
      const knownDevice = readKnownDevice(app.ctx.config.secretKey, request.headers.cookie);
      const { result, deviceCookie } = await passkeySignIn(app.ctx, request.body, { ip: clientIp(request), userAgent: request.headers['user-agent'], knownDevice });
      reply.header('set-cookie', deviceCookie);
      return ok(result);
    },
  );

  app.get(
    '/auth/passkeys',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: "The caller's passkeys", response: { 200: successEnvelope(passkeyList) } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await listPasskeys(app.ctx, callerOf(request)));
    },
  );

  app.post(
    '/auth/passkeys/options',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: "Start adding a passkey, with the account's password: the options for navigator.credentials.create (a single-use challenge)",
        body: passkeyOptionsBody,
        response: { 200: successEnvelope(passkeyCreationOptions), ...refusals('passkey_limit', 'password_invalid', 'login_rate_limited') },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await passkeyRegistrationOptions(app.ctx, callerOf(request), request.body));
    },
  );

  app.post(
    '/auth/passkeys/confirm/options',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: "Confirm a change with one of the caller's passkeys: the options for navigator.credentials.get (a single-use challenge)",
        response: { 200: successEnvelope(passkeyRequestOptions), ...refusals('passkey_not_found') },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await passkeyConfirmOptions(app.ctx, callerOf(request)));
    },
  );

  app.post(
    '/auth/passkeys',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: "Add a passkey: its name and the browser's attestation", body: passkeyRegisterBody, response: { 200: successEnvelope(passkeyView), ...refusals('passkey_challenge_invalid', 'passkey_invalid', 'passkey_already_registered', 'passkey_limit') } },
    },
    async (request) => ok(await registerPasskey(app.ctx, callerOf(request), request.body), passkeyMessages.added),
  );

  app.patch(
    '/auth/passkeys/:passkeyId',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: 'Rename one of the caller\'s passkeys', params: passkeyIdParams, body: passkeyRenameBody, response: { 200: successEnvelope(passkeyView), ...refusals('passkey_not_found') } },
    },
    async (request) => ok(await renamePasskey(app.ctx, callerOf(request), request.params.passkeyId, request.body), passkeyMessages.renamed),
  );

  app.post(
    '/auth/passkeys/:passkeyId/remove',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: "Remove one of the caller's passkeys, with a current second factor (a code, or a passkey)",
        params: passkeyIdParams,
        body: passkeyRemoveBody,
        response: {
          200: successEnvelope(noData),
          ...refusals('passkey_not_found', 'passkey_invalid', 'second_factor_invalid', 'second_factor_reused', 'recovery_code_invalid', 'second_factor_rate_limited'),
        },
      },
    },
    async (request) => {
      await removePasskey(app.ctx, callerOf(request), request.params.passkeyId, request.body);
      return ok(null, passkeyMessages.removed);
    },
  );

  app.get(
    '/auth/two-factor',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: "Whether the caller's two-factor sign-in is on, and the recovery codes left", response: { 200: successEnvelope(twoFactorStatus) } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await readTwoFactorStatus(app.ctx, callerOf(request)));
    },
  );

  app.post(
    '/auth/two-factor/setup',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: "Start setting up an authenticator app, with the account's password: a new secret (off until a code confirms it)",
        body: twoFactorSetupBody,
        response: { 200: successEnvelope(twoFactorSetup), ...refusals('two_factor_already_on', 'password_invalid', 'login_rate_limited') },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await startTwoFactorSetup(app.ctx, callerOf(request), request.body));
    },
  );

  app.post(
    '/auth/two-factor/enable',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: "Turn two-factor sign-in on with a code from the app and the account's password; answers ten recovery codes, this once",
        body: twoFactorEnableBody,
        response: {
          200: successEnvelope(twoFactorEnabled),
          ...refusals('password_invalid', 'login_rate_limited', 'recovery_code_invalid', 'second_factor_invalid', 'second_factor_rate_limited', 'second_factor_reused', 'two_factor_already_on', 'two_factor_not_started'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await enableTwoFactor(app.ctx, callerOf(request), request.body), twoFactorMessages.enabled);
    },
  );

  app.post(
    '/auth/two-factor/recovery-codes',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Ten new recovery codes, with a current code from the app; the old ones stop working; answered this once',
        body: twoFactorCodeBody,
        response: { 200: successEnvelope(twoFactorEnabled), ...refusals('second_factor_invalid', 'second_factor_rate_limited', 'second_factor_reused', 'two_factor_not_on') },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await renewRecoveryCodes(app.ctx, callerOf(request), request.body), twoFactorMessages.recoveryCodesRenewed);
    },
  );

  app.post(
    '/auth/two-factor/disable',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: 'Turn two-factor sign-in off with a current code (the app\'s or a recovery code)', body: twoFactorCodeBody, response: { 200: successEnvelope(noData), ...refusals('recovery_code_invalid', 'second_factor_invalid', 'second_factor_rate_limited', 'second_factor_reused', 'two_factor_not_on') } },
    },
    async (request) => {
      await disableTwoFactor(app.ctx, callerOf(request), request.body);
      return ok(null, twoFactorMessages.disabled);
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: 'Revoke the session behind the token', response: { 200: successEnvelope(noData) } },
    },
    async (request) => {
      if (!request.auth) throw refuse('unauthorized');
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
        response: { 200: successEnvelope(noData), ...refusals('password_reset_rate_limited') },
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
        response: { 200: successEnvelope(noData), ...refusals('password_reset_link_invalid', 'password_reset_rate_limited') },
      },
    },
    async (request) => {
      await resetPassword(app.ctx, request.body, clientIp(request));
      return ok(null, messages.passwordReset.done);
    },
  );

  app.get(
    '/auth/sessions',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: "The caller's signed-in devices", response: { 200: successEnvelope(sessionList) } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await listDevices(app.ctx, callerOf(request)));
    },
  );

  app.delete(
    '/auth/sessions/:sessionId',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: "Signs one of the caller's other devices out", params: sessionIdParams, response: { 200: successEnvelope(noData), ...refusals('current_session', 'session_not_found') } },
    },
    async (request) => {
      await signOutDevice(app.ctx, callerOf(request), request.params.sessionId);
      return ok(null, sessionMessages.signedOut);
    },
  );

  app.post(
    '/auth/sessions/sign-out-others',
    {
      onRequest: requireUser,
      schema: { tags: ['auth'], summary: 'Signs every other device of the caller out', response: { 200: successEnvelope(signedOutOthers) } },
    },
    async (request) => ok({ signedOut: await signOutOtherDevices(app.ctx, callerOf(request)) }, sessionMessages.signedOutOthers),
  );
};

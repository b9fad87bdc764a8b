import path from 'node:path';
import { messages, successEnvelope, transferMessages, twoFactorMessages } from '@kestrel/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testDatabase } from '../../test/harness.ts';
import { buildApp } from '../app.ts';
import { takeUndocumentedAnswers } from './openapi/status-check.ts';
import { takeUndeclaredRefusals } from './refusal-check.ts';
import { declaredRefusals, REFUSALS, refuse, refusals, statusOf, UNIVERSAL_REFUSALS, wireCodeOf, type RefusalCode } from './refusals.ts';

type Json = Record<string, any>;

describe('the refusal table', () => {
  it('gives every code an error status, and a message to every code that has a default', () => {
    for (const [code, entry] of Object.entries(REFUSALS)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      if ('message' in entry) expect(entry.message, code).not.toBe('');
    }
    expect(refuse('tpin_locked').message).toBe(messages.tpin.locked);
    expect(refuse('tpin_incorrect', { message: 'Wrong TPIN. 2 attempts left' }).message).toBe('Wrong TPIN. 2 attempts left');
  });

  it('sends the same code for the sign-in and the signed-in second factor, each with its own status', () => {
    expect([statusOf('login_second_factor_invalid'), wireCodeOf('login_second_factor_invalid')]).toEqual([401, 'second_factor_invalid']);
    expect([statusOf('second_factor_invalid'), wireCodeOf('second_factor_invalid')]).toEqual([400, 'second_factor_invalid']);
    expect(refuse('login_second_factor_invalid').code).toBe('second_factor_invalid');
  });

  it('builds one error answer per status of the declared codes', () => {
    expect(Object.keys(refusals('same_account', 'tpin_incorrect', 'tpin_locked', 'money_movement_locked'))).toEqual(['400', '423']);
  });
});

describe('the routes', () => {
  it('declare every code of the table somewhere (a code no route declares is dead or undocumented)', async () => {
    const handle = await testDatabase();
    const config = testConfig();
    const declared = new Set<RefusalCode>(UNIVERSAL_REFUSALS);
    const app = await buildApp({
      config,
      db: handle.db,
      logger: false,
      webDist: path.join(config.dataDir, 'no-web'),
      onRoute: (route) => declaredRefusals((route.schema as Json | undefined)?.response).forEach((code) => declared.add(code)),
    });
    await app.ready();
    await app.close();
    expect((Object.keys(REFUSALS) as RefusalCode[]).filter((code) => !declared.has(code))).toEqual([]);
  });
});

describe('an answer with a refusal', () => {
  let app: FastifyInstance;
  const planted = '/v1/test-refusals/:code';

  beforeAll(async () => {
    const handle = await testDatabase();
    const config = testConfig();
    app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    app.get(
      planted,
      { schema: { response: { 200: successEnvelope(z.null()), ...refusals('same_account', 'login_second_factor_invalid') } } },
      async (request) => {
        throw refuse((request.params as { code: RefusalCode }).code, { message: 'planted' });
      },
    );
    await app.ready();
  });

  afterAll(async () => {
    // The planted route has no entry in the reference; its statuses are not the suite's business.
    takeUndocumentedAnswers();
    await app.close();
  });

  it('answers a declared code with the status from the table and the body clients read', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/test-refusals/same_account' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', error: 'planted', code: 'same_account' });
    const signIn = await app.inject({ method: 'GET', url: '/v1/test-refusals/login_second_factor_invalid' });
    expect(signIn.statusCode).toBe(401);
    expect(signIn.json()).toEqual({ status: 'error', error: 'planted', code: 'second_factor_invalid' });
    expect(takeUndeclaredRefusals()).toEqual([]);
  });

  it('lets the universal codes through on any route', async () => {
    expect(UNIVERSAL_REFUSALS).toContain('not_found');
    const response = await app.inject({ method: 'GET', url: '/v1/test-refusals/not_found' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'error', error: 'planted', code: 'not_found' });
    expect(takeUndeclaredRefusals()).toEqual([]);
  });

  it('turns a code the route did not declare into a 500 naming the route and the code, and reports it to the suite', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/test-refusals/tpin_locked' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      status: 'error',
      error: "GET /v1/test-refusals/:code raised the refusal 'tpin_locked', which the route does not declare: add it to the route's refusals(...)",
      code: 'undeclared_refusal',
    });
    expect(takeUndeclaredRefusals()).toEqual(['GET /v1/test-refusals/:code raised tpin_locked']);
    expect(takeUndeclaredRefusals()).toEqual([]);
  });

  it('lists the declared codes under their status in the reference', async () => {
    const operation = (app.swagger() as Json).paths['/v1/test-refusals/{code}'].get as Json;
    expect(operation.responses['400'].description).toContain('`same_account`');
    expect(operation.responses['401'].description).toContain('`second_factor_invalid`');
    expect(operation.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });
});

describe('a refusal in a real flow', () => {
  it('keeps the spec text: the same-account transfer answers 400 same_account with its field', async () => {
    const refusal = refuse('same_account', { fields: { creditAccountKey: transferMessages.sameAccount } });
    expect([statusOf(refusal.refusal), refusal.code, refusal.message, refusal.fields]).toEqual([400, 'same_account', transferMessages.sameAccount, { creditAccountKey: transferMessages.sameAccount }]);
    expect(refuse('second_factor_rate_limited', { retryAfterSeconds: 30 }).retryAfterSeconds).toBe(30);
    expect(refuse('second_factor_rate_limited').message).toBe(twoFactorMessages.rateLimited);
  });
});

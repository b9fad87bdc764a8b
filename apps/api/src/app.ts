import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/database.ts';
import { registerErrorHandling, type ErrorBody } from './http/errors.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { activitiesRoutes } from './modules/activities/activities.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { dataRoutes } from './modules/data/data.routes.ts';
import { mailboxRoutes } from './modules/mail/mailbox.routes.ts';
import { createMailer, type Mailer } from './modules/mail/mailer.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { storesRoutes } from './modules/stores/stores.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { callbacksRoutes } from './modules/callbacks/callbacks.routes.ts';
import { devStoreCallbackRoutes } from './modules/callbacks/dev-listener.routes.ts';
import { transactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { transfersRoutes } from './modules/transfers/transfers.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';

export const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildAppOptions {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** false silences request logs (tests); otherwise the level from the config. */
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them to prove what is never logged. */
  logStream?: NodeJS.WritableStream;
  /** The built web app; served with a history fallback when it exists. */
  webDist?: string;
}

/** Log paths whose values must never reach a log line. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.storekey',
  'req.headers.cookie',
  '*.password',
  '*.tpin',
  '*.number',
  '*.cvc',
  '*.token',
  '*.storeKey',
];

/** Builds the whole server without listening, so tests can drive it over real HTTP or inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, redact: { paths: redactPaths, censor: '[redacted]' }, ...(options.logStream ? { stream: options.logStream } : {}) },
    trustProxy: config.nodeEnv === 'production',
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  const ctx: AppContext = { config, db, mailer: options.mailer ?? createMailer(db, config.smtpUrl, config.mailFrom), log: app.log };
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // react-hot-toast injects its stylesheet at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: config.publicUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    global: false,
    allowList: config.rateLimits ? undefined : () => true,
    errorResponseBuilder: (_request, context) =>
      ({
        status: 'error',
        error: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
        code: 'rate_limited',
        statusCode: 429,
      }) satisfies ErrorBody & { statusCode: number },
  });
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 10, fields: 30 } });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kestrel API', version: '1.0.0', description: 'Digital wallet and payment gateway API.' },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The token from POST /v1/auth/login' },
          storeId: { type: 'apiKey', in: 'header', name: 'storeId' },
          storeKey: { type: 'apiKey', in: 'header', name: 'storeKey' },
        },
      },
      security: [{ accessToken: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', staticCSP: true });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`SELECT 1`.execute(db);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'error', error: 'Database unreachable', code: 'not_ready' });
    }
  });

  await app.register(
    async (v1) => {
      await v1.register(authRoutes);
      await v1.register(usersRoutes);
      await v1.register(accountsRoutes);
      await v1.register(activitiesRoutes);
      await v1.register(transfersRoutes);
      await v1.register(transactionsRoutes);
      await v1.register(operatorRoutes);
      await v1.register(storesRoutes);
      await v1.register(paymentsRoutes);
      await v1.register(callbacksRoutes);
    },
    { prefix: '/v1' },
  );
  await app.register(dataRoutes, { prefix: '/data/v1' });
  if (config.nodeEnv !== 'production') await app.register(mailboxRoutes);
  if (config.nodeEnv !== 'production') await app.register(devStoreCallbackRoutes);

  const webDist = options.webDist ?? defaultWebDist;
  const serveWeb = existsSync(path.join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // Vite fingerprints everything under assets/, so those files never change.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // Unknown API paths get a JSON 404; every other GET is the single-page app's route.
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(v1|data|dev)(\/|$)/.test(pathname);
    if (serveWeb && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ status: 'error', error: `No route for ${request.method} ${pathname}`, code: 'route_not_found' } satisfies ErrorBody);
  });

  return app;
}

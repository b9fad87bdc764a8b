import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Writable } from 'node:stream';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicConfig } from '@kestrel/shared';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { isDatabaseReachable } from './db/availability.ts';
import type { Db } from './db/database.ts';
import { ReadRouter } from './db/read-routing.ts';
import { ok, successEnvelope } from './http/envelope.ts';
import { registerErrorHandling, type ErrorBody } from './http/errors.ts';
import { createLogger } from './logger.ts';
import { registerHardening } from './http/hardening.ts';
import { createOpenApiOptions } from './http/openapi/document.ts';
import { registerStatusCheck } from './http/openapi/status-check.ts';
import { registerRefusalCheck } from './http/refusal-check.ts';
import { postgresCounters, rateLimitStore, redisCounters } from './http/rate-limit.ts';
import { compressedHtml, loadCheckoutRenderer, serverRenderedPage, templates } from './http/checkout-ssr.ts';
import { webPages } from './http/web-pages.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { activitiesRoutes } from './modules/activities/activities.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { dataRoutes } from './modules/data/data.routes.ts';
import { invoicesRoutes } from './modules/invoices/invoices.routes.ts';
import { ledgerSealsRoutes } from './modules/ledger/seals.routes.ts';
import { mailboxRoutes } from './modules/mail/mailbox.routes.ts';
import { createMailer, type Mailer } from './modules/mail/mailer.ts';
import { createNotificationBell } from './modules/mail/notification-events.ts';
import { createOutboxSmsSender, type SmsSender } from './modules/mail/sms.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { reconciliationRoutes } from './modules/reconciliation/reconciliation.routes.ts';
import { statementsRoutes } from './modules/statements/statements.routes.ts';
import { cachedSessionLookup } from './modules/sessions/sessions.repository.ts';
import { storesRoutes } from './modules/stores/stores.routes.ts';
import { paymentsExportRoutes } from './modules/payments/payments.export.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { paymentRequestsExportRoutes } from './modules/payment-requests/payment-requests.export.ts';
import { paymentRequestsRoutes } from './modules/payment-requests/payment-requests.routes.ts';
import { refundsExportRoutes } from './modules/refunds/refunds.export.ts';
import { refundsRoutes } from './modules/refunds/refunds.routes.ts';
import { callbacksRoutes } from './modules/callbacks/callbacks.routes.ts';
import { devStoreCallbackRoutes } from './modules/callbacks/dev-listener.routes.ts';
import { createSandboxProcessor, type CardProcessor } from './modules/payments/card-processor.ts';
import { transactionsExportRoutes } from './modules/transactions/transactions.export.ts';
import { transactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { transfersRoutes } from './modules/transfers/transfers.routes.ts';
import { isOperator } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { withdrawalsExportRoutes } from './modules/withdrawals/withdrawals.export.ts';
import { withdrawalsRoutes } from './modules/withdrawals/withdrawals.routes.ts';

export const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** A standby's database for list and dashboard reads (DATABASE_READ_URL); absent: all on `db`. */
  readDb?: Db;
  mailer?: Mailer;
  /** The SMS transport (default: the outbox; no SMS provider is reachable here). */
  sms?: SmsSender;
  /** false silences request logs (tests); otherwise the level from the config. */
  logger?: boolean;
  /** The process's logger (server start-up); made from the config when absent. */
  loggerInstance?: FastifyBaseLogger;
  /** Where log lines go (default stdout); tests read them to prove what is never logged. */
  logStream?: Writable;
  /** The built web app; served with a history fallback when it exists. */
  webDist?: string;
  /** The pay pages' server renderer the web build compiles (default: dist-ssr beside webDist); without it they render in the browser. */
  webSsr?: string;
  /** Sees every route as it is registered (the route-table guard test walks them). */
  onRoute?: (route: RouteOptions) => void;
  /** The card network (default: the built-in sandbox); tests pass one that refuses or stalls. */
  cardProcessor?: CardProcessor;
}

/** Builds the whole server without listening, so tests can drive it over real HTTP or inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    ...(options.logger === false ? { logger: false } : { loggerInstance: options.loggerInstance ?? createLogger(config, options.logStream ? { destination: options.logStream, pretty: false } : {}) }),
    // Forwarding headers are believed only from the proxies named in TRUST_PROXY (default none).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const counters = config.redisUrl
    ? redisCounters(config.redisUrl, (error) => app.log.warn({ err: error }, 'rate-limit counters: Redis unreachable'))
    : postgresCounters(db);
  app.addHook('onClose', () => counters.close());
  const sessions = cachedSessionLookup(db);
  const ctx: AppContext = {
    config,
    db,
    ...(options.readDb ? { reads: new ReadRouter(db, options.readDb, { log: app.log }) } : {}),
    mailer: options.mailer ?? createMailer(db, config.smtpUrl, config.mailFrom, config.nodeEnv !== 'production'),
    sms: options.sms ?? createOutboxSmsSender(),
    notifications: createNotificationBell(),
    log: app.log,
    counters,
    // The route guards (http/guards.ts) look callers up through these, never by importing modules.
    callers: {
      findSession: (token) => sessions.find(token),
      forgetSession: (sessionId) => sessions.forget(sessionId),
      isOperator: (userId) => isOperator(db, userId),
    },
    // The sandbox keeps its records (its settlement file) in this database, outside the ledger's transactions.
    cardProcessor: options.cardProcessor ?? createSandboxProcessor(db),
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerHardening(app);

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
    // Counts live in PostgreSQL (or Redis) so that every API process shares them.
    store: rateLimitStore(counters),
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

  // The reference's words, errors, tags and named schemas: http/openapi/ (document.ts).
  await app.register(swagger, createOpenApiOptions(config.publicUrl));
  await app.register(swaggerUi, { routePrefix: '/v1/docs', staticCSP: true });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (config.nodeEnv === 'test') {
    registerStatusCheck(app);
    registerRefusalCheck(app);
  }

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    // Bounded: behind a silent network the probe would otherwise wait for the connect timeout.
    if (await isDatabaseReachable(db, 1_000)) return { status: 'ok' };
    return reply.status(503).header('retry-after', '1').send({ status: 'error', error: 'Database unreachable', code: 'not_ready' });
  });

  app.get(
    '/v1/config',
    {
      schema: {
        tags: ['platform'],
        summary: "The web app's public settings",
        security: [],
        response: { 200: successEnvelope(publicConfig) },
      },
    },
    async () => ok({ marketingUrl: config.marketingUrl }),
  );

  await app.register(
    async (v1) => {
      await v1.register(authRoutes);
      await v1.register(usersRoutes);
      await v1.register(accountsRoutes);
      await v1.register(dashboardRoutes);
      await v1.register(activitiesRoutes);
      await v1.register(transfersRoutes);
      await v1.register(transactionsRoutes);
      await v1.register(ledgerSealsRoutes);
      await v1.register(transactionsExportRoutes);
      await v1.register(operatorRoutes);
      await v1.register(reconciliationRoutes);
      await v1.register(statementsRoutes);
      await v1.register(withdrawalsRoutes);
      await v1.register(withdrawalsExportRoutes);
      await v1.register(storesRoutes);
      await v1.register(paymentsRoutes);
      await v1.register(paymentsExportRoutes);
      await v1.register(paymentRequestsRoutes);
      await v1.register(paymentRequestsExportRoutes);
      await v1.register(refundsRoutes);
      await v1.register(refundsExportRoutes);
      await v1.register(callbacksRoutes);
    },
    { prefix: '/v1' },
  );
  await app.register(dataRoutes, { prefix: '/data/v1' });
  await app.register(invoicesRoutes, { prefix: '/data/v1' });
  // The mailbox shows every stored mail (verification links included): only while mail goes
  // to the outbox, outside production, and only to loopback callers (see mailboxRoutes).
  if (config.nodeEnv !== 'production' && !config.smtpUrl) await app.register(mailboxRoutes);
  if (config.nodeEnv !== 'production') await app.register(devStoreCallbackRoutes);

  const webDist = options.webDist ?? defaultWebDist;
  const serveWeb = existsSync(path.join(webDist, 'index.html'));
  // Login, signup and the pay pages have HTML files of their own (prerendered, or preloading their chunks).
  const webPageFor = serveWeb ? webPages(webDist) : () => 'index.html';
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes brotli and gzip copies beside each file; send the one the browser accepts.
      preCompressed: true,
      // Vite fingerprints everything under assets/, so those files never change.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // The pay pages' HTML rendered with their payment (http/checkout-ssr.ts), when the web build made the renderer.
  const checkoutRenderer = serveWeb ? await loadCheckoutRenderer(options.webSsr ?? path.join(path.dirname(webDist), 'dist-ssr')) : undefined;
  const webTemplate = templates(webDist);

  /** A pay page with its payment in the HTML, or undefined when the path is none or its rendering failed (the built page is sent). */
  const renderPayPage = async (pathname: string, ip: string): Promise<string | undefined> => {
    const firstRead = checkoutRenderer?.firstReadOf(pathname);
    if (!checkoutRenderer || !firstRead) return undefined;
    try {
      // The page's own public GET, asked of this server as the visitor (its rate limits and answers apply).
      const read = await app.inject({ method: 'GET', url: firstRead, headers: { accept: 'application/json' }, remoteAddress: ip });
      const answer = { status: read.statusCode, body: read.json<unknown>() };
      const rendered = await checkoutRenderer.renderCheckoutPage(pathname, answer);
      return rendered && serverRenderedPage(webTemplate(webPageFor(pathname)), rendered, answer);
    } catch (error) {
      app.log.error({ err: error, pathname }, 'pay page server rendering failed; sending the page as built');
      return undefined;
    }
  };

  // Unknown API paths get a JSON 404; every other GET is the single-page app's route.
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(v1|data|dev)(\/|$)/.test(pathname);
    if (serveWeb && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      const payPage = await renderPayPage(pathname, request.ip);
      // The payment's state changes (paid, disabled, expired): a rendered pay page is never stored.
      if (payPage !== undefined) {
        const { body, encoding } = compressedHtml(payPage, request.headers['accept-encoding']);
        if (encoding) reply.header('content-encoding', encoding);
        return reply.header('cache-control', 'no-store').header('vary', 'Accept-Encoding').type('text/html; charset=utf-8').send(body);
      }
      // Vary: Cookie, as the dashboard's skeleton goes only to a browser holding a session (web-pages.ts).
      return reply.header('cache-control', 'no-cache').header('vary', 'Cookie').sendFile(webPageFor(pathname, request.headers.cookie));
    }
    return reply
      .status(404)
      .send({ status: 'error', error: `No route for ${request.method} ${pathname}`, code: 'route_not_found' } satisfies ErrorBody);
  });

  return app;
}

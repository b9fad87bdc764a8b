import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { ReadRouter } from './db/read-routing.ts';
import type { RateCounters } from './http/rate-limit.ts';
import type { Mailer } from './modules/mail/mailer.ts';
import type { NotificationBell } from './modules/mail/notification-events.ts';
import type { SmsSender } from './modules/mail/sms.ts';
import type { CardProcessor } from './modules/payments/card-processor.ts';

/**
 * How the route guards (http/guards.ts) learn who is calling. app.ts wires these to the
 * sessions and users modules, so the http layer never imports a feature module.
 */
export interface CallerLookup {
  /**
   * The live session behind a token, or undefined when unknown, expired or revoked. A live
   * session may be remembered for up to 1 s (sessions.repository.ts: cachedSessionLookup).
   */
  findSession(token: string): Promise<{ id: string; userId: string } | undefined>;
  /** Forgets a session this process has just revoked. */
  forgetSession(sessionId: string): void;
  isOperator(userId: string): Promise<boolean>;
}

/** What route handlers and services need from the running process. */
export interface AppContext {
  config: Config;
  db: Db;
  /**
   * DATABASE_READ_URL's standby for list and dashboard reads, with read-your-writes
   * (db/read-routing.ts, `onReadDb`); absent: every read on `db`.
   */
  reads?: ReadRouter;
  mailer: Mailer;
  /** Text messages for accounts that prefer SMS (the outbox here: no SMS provider is reachable). */
  sms: SmsSender;
  /** Rung after a commit that wrote a notification event; wakes the dispatcher (start.ts starts it). */
  notifications: NotificationBell;
  log: FastifyBaseLogger;
  /** Shared rate-limit counters; absent (CLIs, some tests) means PostgreSQL through `db`. */
  counters?: RateCounters;
  callers: CallerLookup;
  /** The card network: the built-in sandbox unless buildApp was given another (tests pass one that fails or stalls). */
  cardProcessor: CardProcessor;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** Set by the requireUser / requireOperator guards. */
    auth: { userId: string; sessionId: string } | null;
  }
}

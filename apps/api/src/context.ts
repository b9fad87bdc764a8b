import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { RateCounters } from './http/rate-limit.ts';
import type { Mailer } from './modules/mail/mailer.ts';

/** What route handlers and services need from the running process. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Shared rate-limit counters; absent (CLIs, some tests) means PostgreSQL through `db`. */
  counters?: RateCounters;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** Set by the authenticate pre-handler. */
    auth: { userId: string; sessionId: string } | null;
  }
}

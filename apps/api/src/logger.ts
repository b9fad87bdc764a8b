import type { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.ts';

/** Log paths whose values must never reach a log line. */
export const redactPaths = [
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

/** Readable lines for a person at a terminal; JSON lines for everything else (log collectors, CI, production). */
export function wantsPrettyLogs(config: Pick<Config, 'nodeEnv'>, stdoutIsTerminal = process.stdout.isTTY === true): boolean {
  return stdoutIsTerminal && config.nodeEnv !== 'production';
}

/**
 * The process's one logger (Fastify uses it too). In development at a terminal the lines go
 * through pino-pretty in this process (no worker thread), so a fatal line is written before exit.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeEnv'>, options: { pretty?: boolean; destination?: Writable } = {}): Logger {
  const base = { level: config.logLevel, redact: { paths: redactPaths, censor: '[redacted]' } };
  if (options.pretty ?? wantsPrettyLogs(config)) {
    return pino(base, pretty({ colorize: !options.destination, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true, sync: true, destination: options.destination ?? 1 }));
  }
  return options.destination ? pino(base, options.destination) : pino(base);
}

// Which errors mean "the database is unreachable" rather than "this query is wrong". Its own
// file, importing nothing, because both the connection (database.ts: discard a broken pooled
// connection) and the start-up wait (availability.ts, which needs the connection's Db type)
// use it; in either of those it would make an import circle.

/**
 * PostgreSQL error classes that mean "the database could not be reached or gave up on us",
 * not "this request is wrong": 08 connection exception, 57P01–57P03 (terminated by an
 * administrator, crash shutdown, cannot connect now), 57014 (statement timeout / cancelled),
 * 25P03 (idle-in-transaction timeout), 53300 (too many connections), 25006 (read-only
 * transaction: the host was a primary and is a standby now, after a failover).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03', '53300', '25006']);

/** Socket errors and the messages `pg` / `pg-pool` use when a connection breaks or times out. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'not queryable',
  'Client was closed',
  'Connection ended',
  'timeout expired',
];

/** True when `error` says the database is unreachable or dropped the connection (not a bad query). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  }
  if (UNAVAILABLE_MESSAGES.some((text) => error.message.includes(text))) return true;
  // AggregateError from a connect to a host with several addresses (IPv4 and IPv6).
  if (error instanceof AggregateError) return error.errors.some((inner) => isDatabaseUnavailable(inner));
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}

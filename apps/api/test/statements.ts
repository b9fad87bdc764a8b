import pg from 'pg';
import { vi } from 'vitest';

/**
 * Records every statement this process sends to the database (PostgreSQL or the PGlite
 * thread: both go through `pg`'s client, transaction control included) until `stop()`:
 * the round trips a request costs. Only for a test that runs nothing else meanwhile.
 */
export function recordStatements(): { texts: string[]; stop: () => void } {
  const texts: string[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    texts.push(typeof first === 'string' ? first : (first?.text ?? ''));
    return (query as (...rest: unknown[]) => unknown).apply(this, args);
  } as never);
  return { texts, stop: () => spy.mockRestore() };
}

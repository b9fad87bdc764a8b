import pg from 'pg';
import { vi } from 'vitest';
import { api, testServer } from './harness.ts';

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

/** One request through `api` and the statements it sent (the test server is started first, so its start-up is not counted). */
export async function countedCall(method: string, path: string, options: Parameters<typeof api>[2]) {
  await testServer();
  const recording = recordStatements();
  try {
    const response = await api(method, path, options);
    return { response, texts: recording.texts };
  } finally {
    recording.stop();
  }
}

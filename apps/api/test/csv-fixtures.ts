import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { testServer } from './harness.ts';

/** A CSV download as records keyed by header; its UTF-8 byte-order mark is checked and taken off first. */
export async function csvOf(urlPath: string, token?: string): Promise<{ status: number; rows: Record<string, string>[]; headers: Headers; body: string }> {
  const answer = await fetch(`${(await testServer()).baseUrl}${urlPath}`, { headers: token ? { authorization: token } : {} });
  const bytes = Buffer.from(await answer.arrayBuffer());
  if (answer.status !== 200) return { status: answer.status, rows: [], headers: answer.headers, body: bytes.toString('utf8') };
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const body = bytes.subarray(3).toString('utf8');
  return { status: answer.status, rows: parse(body, { columns: true, record_delimiter: '\r\n' }), headers: answer.headers, body };
}

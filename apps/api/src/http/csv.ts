import { pipeline, Readable } from 'node:stream';
import { accountExportParams, asCents, asCurrency, exportRangeQuery, formatDateTime, formatMoney } from '@kestrel/shared';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { readDbFor, type ReadRouter } from '../db/read-routing.ts';
import { refuse, refusals } from './refusals.ts';
import { callerId, requireUser } from './guards.ts';
import { findOwnedAccount } from './ownership.ts';

/*
 * CSV exports, streamed: rows come from the database a page at a time (keyset order, never
 * OFFSET), go through csv-stringify (quoting, separators, line ends) and out to the client as
 * they are made, with back-pressure, so an export of any size holds one page in memory.
 *
 * The file starts with a UTF-8 byte-order mark: spreadsheet programs (Excel above all) read a
 * file without one as the local code page and garble non-Latin names; every other CSV reader
 * skips it. Lines end with CRLF (RFC 4180).
 */

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
}

/** How many rows one database round trip of an export fetches. */
export const EXPORT_PAGE_ROWS = 1_000;

/**
 * Every row of a keyset-paged query: `page(after)` answers the rows that follow `after` (the
 * last row of the previous page, undefined for the first), at most `EXPORT_PAGE_ROWS`.
 */
export async function* keysetRows<Row>(page: (after: Row | undefined) => Promise<Row[]>): AsyncGenerator<Row> {
  let after: Row | undefined;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < EXPORT_PAGE_ROWS) return;
    after = rows.at(-1);
  }
}

/** Sends `rows` as a CSV download named `filename` (ASCII), with the header line first. */
export function sendCsv<Row>(reply: FastifyReply, filename: string, columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row>) {
  async function* records() {
    for await (const row of rows) yield columns.map((column) => column.value(row) ?? '');
  }
  const csv = stringify({ header: true, columns: columns.map((column) => column.header), bom: true, record_delimiter: 'windows' });
  // A failure half-way (the database gone) ends the download broken rather than hanging it, and is logged.
  pipeline(Readable.from(records()), csv, (error) => {
    if (error) reply.log.error({ err: error }, 'CSV export failed half-way');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(csv);
}

/**
 * The spec's date format ("November 22nd, 2026 2:30 PM") in UTC, whatever the server's time
 * zone: date-fns formats local time, so the instant is shifted by the local offset first.
 */
export function formatUtcDateTime(value: Date): string {
  return formatDateTime(new Date(value.getTime() + value.getTimezoneOffset() * 60_000));
}

/** An export's time range: [start, end) instants, either open. */
export interface DayRange {
  start: Date | null;
  end: Date | null;
}

/** A day range from `from`/`to` (YYYY-MM-DD, UTC, both inclusive) as [start, end) instants. */
export function dayRange(range: { from?: string | undefined; to?: string | undefined }): DayRange {
  const start = range.from ? new Date(`${range.from}T00:00:00.000Z`) : null;
  const end = range.to ? new Date(new Date(`${range.to}T00:00:00.000Z`).getTime() + 86_400_000) : null;
  return { start, end };
}

/** An amount as the spec's lists show it ("US$ 1,234.50"), from the cents text a query answers. */
export function csvMoney(cents: string | number, currency: string): string {
  return formatMoney(asCents(cents), asCurrency(currency));
}

/** The primary's database, and the standby's read router when DATABASE_READ_URL is set (AppContext's `db`, `reads`). */
export interface ReadContext {
  db: Db;
  reads?: ReadRouter | undefined;
}

/** One account-keyed export: its route, how the reference describes it, its file and its rows. */
export interface AccountCsvExport<Row> {
  /** The route, ending in `:accountNumber`. */
  path: string;
  summary: string;
  description: string;
  /** The file is `<fileStem>-<accountNumber>.csv`. */
  fileStem: string;
  columns: readonly CsvColumn<Row>[];
  /** The account's rows after `after` (the last row of the page before), at most EXPORT_PAGE_ROWS, in keyset order. */
  page: (db: Db, accountId: string, range: DayRange, after: Row | undefined) => Promise<Row[]>;
}

/** A CSV route's success answer: streamed text, never serialized (the reference types it as text/csv). */
export const csvAnswer = z.unknown().describe('The rows as CSV (text/csv)');

/**
 * GET `path`: one of the caller's accounts' rows as a streamed CSV, optionally between two UTC
 * days; an account that is not the caller's (or no account) is 404, no session 401. The
 * account exports (transactions, payments, link payments, refunds, withdrawals) are this one
 * route with their own rows.
 */
export function accountCsvExport<Row>(app: Parameters<FastifyPluginAsyncZod>[0], ctx: ReadContext, spec: AccountCsvExport<Row>): void {
  app.get(
    spec.path,
    {
      onRequest: requireUser,
      schema: { tags: ['exports'], summary: spec.summary, description: spec.description, params: accountExportParams, querystring: exportRangeQuery, response: { 200: csvAnswer, ...refusals('not_found') } },
    },
    async (request, reply) => {
      // On the standby when it has everything committed before this request (README "Reads on a standby").
      const db = await readDbFor(ctx);
      const account = await findOwnedAccount(db, { userId: callerId(request) }, request.params.accountNumber);
      if (!account) throw refuse('not_found');
      const range = dayRange(request.query);
      return sendCsv(reply, `${spec.fileStem}-${account.accountNumber}.csv`, spec.columns, keysetRows<Row>((after) => spec.page(db, account.id, range, after)));
    },
  );
}

import { z } from 'zod';

/*
 * CSV exports of the lists (issue 26). Each export takes an optional date range in UTC days,
 * both ends inclusive; without one it holds every row.
 */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD').refine((value) => { const parsed = new Date(`${value}T00:00:00Z`); return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value; }, 'Use a real date');

export const exportRangeQuery = z
  .object({ from: day.optional(), to: day.optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: "'from' must not be after 'to'", path: ['from'] });
export type ExportRange = z.infer<typeof exportRangeQuery>;

export const accountExportParams = z.object({ accountNumber: z.string().min(1).max(64) });

/** A store's payments export: the store's public id (as in the store's page address). */
export const storeExportParams = z.object({ storeId: z.string().min(1).max(100) });

/** One payment request's payments export: the request's id (as in its details page address). */
export const paymentRequestExportParams = z.object({ paymentRequestId: z.string().min(1).max(100) });

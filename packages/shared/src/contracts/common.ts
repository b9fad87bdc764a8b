import { z } from 'zod';
import { CURRENCIES } from '../constants.ts';
import { withExample } from '../contract-examples.ts';

/*
 * Pieces every contract uses: the response envelopes and the money fields of responses.
 */

/** Success envelope: `{ status: 'success', message?, data }` (DESIGN.md). */
export const successEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ status: z.literal('success'), message: z.string().optional(), data });

/** Error envelope: `{ status: 'error', error, code, fields? }`. */
export const errorEnvelope = z.object({
  status: z.literal('error'),
  error: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorEnvelope>;

/** A currency code the product supports. */
export const currencyCode = z.enum(CURRENCIES);

/**
 * An amount in a response: major units as the spec shows (12.5), always a whole number of
 * cents. Clients turn it into `Cents` with `majorToCents`, never `amount * 100`.
 */
export const majorUnits = withExample(z.number().describe('Major units, e.g. 12.5'), 25.5);

/** A response with no data (`data: null`). */
export const noData = z.null();

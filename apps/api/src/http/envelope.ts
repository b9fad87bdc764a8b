import { z } from 'zod';

/** Success envelope: `{ status: 'success', message?, data }` (DESIGN.md). */
export function ok<T>(data: T, message?: string): { status: 'success'; message?: string; data: T } {
  return message === undefined ? { status: 'success', data } : { status: 'success', message, data };
}

export const successEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ status: z.literal('success'), message: z.string().optional(), data });

export const errorEnvelope = z.object({
  status: z.literal('error'),
  error: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});

import { z } from 'zod';

/**
 * Example values of contract fields, for the API reference. The server's document is built
 * with this registry as its metadata (apps/api/src/http/openapi/schemas.ts adds the named
 * contracts to it), so a field's example shows in the reference wherever the field is used,
 * and the composed request and answer examples are made of values the contract accepts.
 */
export const contractRegistry = z.registry<{ id?: string; examples?: unknown[]; description?: string }>();

/** Records an example of what this field accepts (and its `.describe()` text); answers the same schema. */
export function withExample<T extends z.ZodType>(schema: T, example: z.input<T>): T {
  const description = z.globalRegistry.get(schema)?.description;
  contractRegistry.add(schema, { ...contractRegistry.get(schema), ...(description ? { description } : {}), examples: [example] });
  return schema;
}

import type { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';

type Schema = Parameters<typeof zodResolver>[0];

/**
 * react-hook-form's zod resolver for a form schema of the contracts, downloaded on the form's
 * first check (its first submit) instead of with the page: the page paints and becomes
 * usable without zod, and the messages under the fields are the schema's, exactly as with
 * `zodResolver(schema)`. `preload` (on the form's first focus) starts the download early, so
 * the first submit rarely waits for it. `loadSchema` imports the contract's own module
 * (`@kestrel/shared/contracts/auth`), not the package's index, which would bring every
 * contract into the pages' shared chunks.
 */
export function lazyZodResolver<Values extends FieldValues>(loadSchema: () => Promise<Schema>): Resolver<Values> & { preload: () => void } {
  let loaded: Promise<Resolver<Values>> | undefined;
  const load = () =>
    (loaded ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([resolvers, schema]) => resolvers.zodResolver(schema) as unknown as Resolver<Values>,
    ));
  const resolver: Resolver<Values> = async (values, context, options) => (await load())(values, context, options);
  return Object.assign(resolver, {
    preload: () => {
      // A failed download is retried on the next check.
      load().catch(() => {
        loaded = undefined;
      });
    },
  });
}

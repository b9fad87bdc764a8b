import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countryMap } from '../accounts/countries.ts';

/** The spec's separate data host, served at /data/v1 on the same server. No authentication. */
export const dataRoutes: FastifyPluginAsyncZod = async (app) => {
  const map = countryMap();
  app.get(
    '/countries',
    {
      schema: {
        tags: ['data'],
        summary: 'Country list: ISO 3166-1 alpha-2 code to name',
        security: [],
        response: { 200: z.record(z.string(), z.object({ country: z.string() })) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').send(map),
  );
};

import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';

/** The server's public settings for the web app (GET /v1/config), read once per page load. */
export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: async ({ signal }) => (await http.get('/v1/config', (contracts) => contracts.publicConfig, { auth: false, signal })).data,
    staleTime: Infinity,
  });
}

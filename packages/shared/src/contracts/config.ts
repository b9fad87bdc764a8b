import { z } from 'zod';

/** GET /v1/config: the settings the web app needs at run time (no secrets; public). */
export const publicConfig = z.object({
  marketingUrl: z.string().describe("Where the login page's logo bar links: the marketing site (MARKETING_URL)"),
});
export type PublicConfig = z.infer<typeof publicConfig>;

/** The dashboard's paths (routes.tsx: the index route and /dashboard), as the router matches them: any case, a trailing slash. */
export const isDashboardPath = (pathname: string): boolean => /^\/(dashboard)?\/?$/i.test(pathname);

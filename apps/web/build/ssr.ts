import { build, type Plugin } from 'vite';

/**
 * After the browser build, compiles the pay pages' server renderer (src/app/checkout-ssr.tsx)
 * for Node into `outDir` (beside dist/, never served): React, TanStack Query and the other
 * libraries stay imports of node_modules; the app's own code and @kestrel/shared are bundled.
 * The API loads it at start when it is there (apps/api/src/http/checkout-ssr.ts).
 */
export function ssrBuild(entry: string, outDir: string, configFile: string): Plugin {
  return {
    name: 'kestrel-ssr-build',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    async closeBundle() {
      await build({ configFile, logLevel: 'warn', build: { ssr: entry, outDir, emptyOutDir: true } });
    },
  };
}

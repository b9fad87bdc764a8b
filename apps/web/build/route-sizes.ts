import { gzipSync } from 'node:zlib';
import path from 'node:path';
import type { Plugin } from 'vite';

/** A page of the app and the source modules it needs beyond the entry (its lazy chunks). */
export interface RouteSize {
  route: string;
  /** Paths under src/ of the modules the entry loads dynamically for the route (its app, its lazy chunks), outermost first. */
  modules: string[];
  /** The most the route may download, in KB gzipped: more is reported as a warning. */
  budgetKB?: number;
}

interface ChunkInfo {
  fileName: string;
  imports: string[];
  gzipBytes: number;
  facade: string | null;
  isEntry: boolean;
}

/**
 * Prints, after a production build, how much JavaScript (gzipped) each listed route
 * downloads: the entry chunk with its static imports, then the chunks the entry and the
 * router load dynamically for the route (the checkout or portal app, the page) with
 * everything they import statically, each chunk counted once. Code splitting is only worth
 * what this shows.
 */
export function routeSizeReport(routes: RouteSize[]): Plugin {
  return {
    name: 'kestrel-route-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, {
          fileName: output.fileName,
          imports: output.imports,
          gzipBytes: gzipSync(output.code, { level: 9 }).length,
          facade: output.facadeModuleId,
          isEntry: output.isEntry,
        });
      }
      const closure = (start: string, seen: Set<string>) => {
        if (seen.has(start)) return;
        seen.add(start);
        for (const next of chunks.get(start)?.imports ?? []) closure(next, seen);
      };
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const byModule = (source: string) =>
        [...chunks.values()].find((chunk) => chunk.facade !== null && chunk.facade.split(path.sep).join('/').endsWith(`/src/${source}`));

      const rows: string[] = [];
      for (const { route, modules, budgetKB } of routes) {
        const needed = new Set<string>();
        closure(entry.fileName, needed);
        const missing = modules.filter((source) => !byModule(source));
        for (const source of modules) {
          const chunk = byModule(source);
          if (chunk) closure(chunk.fileName, needed);
        }
        const bytes = [...needed].reduce((sum, name) => sum + (chunks.get(name)?.gzipBytes ?? 0), 0);
        const note = missing.length ? `  (not split out: ${missing.join(', ')})` : '';
        const over = budgetKB !== undefined && bytes / 1024 > budgetKB;
        const budget = budgetKB === undefined ? '' : over ? `  OVER its budget of ${budgetKB} KB` : `  (budget ${budgetKB} KB)`;
        rows.push(`  ${route.padEnd(28)} ${(bytes / 1024).toFixed(1).padStart(7)} KB in ${needed.size} chunks${budget}${note}`);
        if (process.env.ROUTE_SIZES_VERBOSE) for (const name of needed) rows.push(`      ${name.padEnd(48)} ${((chunks.get(name)?.gzipBytes ?? 0) / 1024).toFixed(1).padStart(7)} KB`);
        if (over) this.warn(`${route} downloads ${(bytes / 1024).toFixed(1)} KB of JavaScript (gzipped), over its budget of ${budgetKB} KB`);
      }
      this.info(`JavaScript per route (gzipped):\n${rows.join('\n')}`);
    },
  };
}

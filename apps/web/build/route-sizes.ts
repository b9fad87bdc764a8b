import { gzipSync } from 'node:zlib';
import path from 'node:path';
import type { Plugin } from 'vite';

/** A page of the app and the source modules it needs beyond the entry (its lazy chunks). */
export interface RouteSize {
  route: string;
  /** Paths under src/ of the lazily loaded modules the route renders, outermost first. */
  modules: string[];
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
 * downloads: the entry chunk and the route's lazy chunks with everything they import
 * statically, each chunk counted once. Code splitting is only worth what this shows.
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
      for (const { route, modules } of routes) {
        const needed = new Set<string>();
        closure(entry.fileName, needed);
        const missing = modules.filter((source) => !byModule(source));
        for (const source of modules) {
          const chunk = byModule(source);
          if (chunk) closure(chunk.fileName, needed);
        }
        const bytes = [...needed].reduce((sum, name) => sum + (chunks.get(name)?.gzipBytes ?? 0), 0);
        const note = missing.length ? `  (not split out: ${missing.join(', ')})` : '';
        rows.push(`  ${route.padEnd(28)} ${(bytes / 1024).toFixed(1).padStart(7)} KB in ${needed.size} chunks${note}`);
      }
      this.info(`JavaScript per route (gzipped):\n${rows.join('\n')}`);
    },
  };
}

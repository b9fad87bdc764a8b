import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createServer, type Plugin } from 'vite';
import type * as PrerenderModule from '../src/app/prerender.tsx';

/** An HTML file the build writes beside index.html, which the server sends for its paths. */
export interface HtmlPage {
  /** The file under dist/, e.g. 'login.html'. */
  file: string;
  /** The path pattern it is sent for (`:name` for one segment), as in the route table. */
  path: string;
  /** Paths the pattern would match that are not this page (they get index.html). */
  except?: string[];
  /**
   * Render the page's HTML at build time: 'page', a signed-out page that needs no data (the
   * portal app hydrates it); 'skeleton', a signed-in page as it looks before its data has come,
   * nothing of the user's in it (the portal app renders afresh over it).
   */
  prerender?: 'page' | 'skeleton';
  /**
   * Cookies a request must carry (non-empty) to get this file; without them the path gets
   * index.html. The signed-in skeleton goes only to a browser holding a session, so a visitor
   * sent on to /login never sees a portal frame first.
   */
  onlyWithCookies?: string[];
  /**
   * Paths under src/ of the modules the page loads dynamically (its app, its page): their
   * chunks and everything those import are preloaded, so they download beside the entry
   * instead of after it.
   */
  preload?: string[];
  /**
   * Start the scripts after the page's first paint: the page carries no script or preload tag
   * but one small same-origin starter (the CSP allows no inline script), which preloads the
   * chunks and imports the entry from the frame after the first one. The page is painted by
   * its HTML (prerendered or rendered by the server), so nothing it shows waits for them, and a
   * slow network spends its first bytes on the HTML and the CSS alone.
   */
  scriptsAfterPaint?: boolean;
}

interface Chunk {
  fileName: string;
  imports: string[];
  facadeModuleId: string | null;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Writes one HTML file per listed page after a production build, and `pages.json`, which
 * tells the server (apps/api/src/http/web-pages.ts) which file each path gets:
 * - prerendered pages (login, signup) carry their page's markup, rendered by
 *   src/app/prerender.tsx through Vite's SSR loader, so the form paints with the HTML and
 *   the CSS, before any script runs; the portal app hydrates it (portal-app.tsx);
 * - the dashboard carries its skeleton (the shell, the title, the counters loading), so its
 *   heading paints with the HTML; the portal app renders over it;
 * - every listed page preloads the chunks it will need (the pay pages: the checkout app and
 *   the page), so nothing waits for the entry to choose an app;
 * - every listed page carries the stylesheet inline, so its first paint needs no second request.
 * Every file gets brotli and gzip copies, as the other assets do.
 */
export function htmlPages(pages: HtmlPage[], configFile: string): Plugin {
  let chunks: Chunk[] = [];
  let outDir = '';
  let srcDir = '';
  return {
    name: 'kestrel-html-pages',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      srcDir = path.resolve(config.root, 'src');
    },
    generateBundle(_options, bundle) {
      chunks = Object.values(bundle)
        .filter((output) => output.type === 'chunk')
        .map((chunk) => ({ fileName: chunk.fileName, imports: chunk.imports, facadeModuleId: chunk.facadeModuleId }));
    },
    async closeBundle() {
      const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const already = new Set([...template.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((match) => match[1]));

      /** A module's chunk and, transitively, what it imports statically, minus what index.html already loads. */
      const preloadsOf = (modules: string[]): string[] => {
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || already.has(fileName)) return;
          files.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const module of modules) {
          const id = path.join(srcDir, module);
          const chunk = chunks.find((candidate) => candidate.facadeModuleId === id);
          if (!chunk) throw new Error(`No chunk for ${module} to preload`);
          visit(chunk.fileName);
        }
        return [...files];
      };

      /**
       * The page without its entry script and preload tags, and with the starter that loads
       * them after the first paint (written to assets/, named by its content's hash).
       */
      const withScriptsAfterPaint = (html: string, preloads: string[], pageFile: string): string => {
        const entry = /<script type="module" crossorigin src="\/([^"]+)"><\/script>\s*/.exec(html);
        if (!entry?.[1]) throw new Error(`index.html has no module entry script for ${pageFile}`);
        const templatePreloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">\s*/g)].map((match) => match[1] ?? '');
        const files = [...new Set([...templatePreloads, ...preloads])];
        const starter = [
          '// Written by the build (apps/web/build/prerender.ts): starts the app after the first paint.',
          `const files = ${JSON.stringify(files)};`,
          'let started = false;',
          'const start = () => {',
          '  if (started) return;',
          '  started = true;',
          '  for (const file of files) {',
          "    const link = document.createElement('link');",
          "    link.rel = 'modulepreload';",
          "    link.crossOrigin = '';",
          '    link.href = `/${file}`;',
          '    document.head.append(link);',
          '  }',
          `  void import(${JSON.stringify(`/${entry[1]}`)});`,
          '};',
          '// The frame after the first one: the first paint has happened. A hidden tab runs no',
          '// frames, so a timer starts it there.',
          'requestAnimationFrame(() => setTimeout(start));',
          'setTimeout(start, 250);',
          '',
        ].join('\n');
        const name = `assets/start-${pageFile.replace(/\.html$/, '')}-${createHash('sha256').update(starter).digest('hex').slice(0, 8)}.js`;
        writeFileSync(path.join(outDir, name), starter);
        return html
          .replace(entry[0], '')
          .replace(/<link rel="modulepreload" crossorigin href="\/[^"]+">\s*/g, '')
          .replace(/\n\s*<\/head>/, `\n    <script type="module" src="/${name}"></script>\n  </head>`);
      };

      const server = pages.some((page) => page.prerender)
        ? await createServer({ configFile, logLevel: 'error', server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom' })
        : undefined;
      try {
        const prerender = server
          ? ((await server.ssrLoadModule('/src/app/prerender.tsx')) as typeof PrerenderModule)
          : undefined;
        for (const page of pages) {
          // The stylesheet inline: the page paints with its HTML, one round trip sooner (the CSP
          // allows inline styles); later pages of the session need no other copy. Its <link> stays,
          // disabled (a browser neither fetches nor applies it): Vite's loader of lazy chunks lists
          // the entry's stylesheet among their dependencies and looks for a <link> to it, and
          // without one it downloaded the stylesheet again and held the first lazy route (the
          // portal gate, the login form) until it came.
          let html = template.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)">/, (_link, file: string) => {
            const css = readFileSync(path.join(outDir, file), 'utf8');
            return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>\n    <link rel="stylesheet" href="/${file}" disabled>`;
          });
          const preloads = preloadsOf(page.preload ?? []);
          if (page.scriptsAfterPaint) {
            html = withScriptsAfterPaint(html, preloads, page.file);
          } else {
            const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
            if (links.length) html = html.replace(/\n\s*<\/head>/, `\n    ${links.join('\n    ')}\n  </head>`);
          }
          if (page.prerender && prerender) {
            const rendered = await (page.prerender === 'page' ? prerender.prerenderPage : prerender.prerenderSkeleton)(page.path);
            if (rendered.title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(rendered.title)}</title>`);
            // The markup replaces the spinner; the portal app hydrates a page (data-prerendered)
            // and renders over a skeleton (data-skeleton).
            const root = /<div id="root">[\s\S]*?<\/div>\s*(?=<\/body>)/;
            if (!root.test(html)) throw new Error('index.html has no <div id="root"> right before </body>');
            const marker = page.prerender === 'page' ? 'data-prerendered' : 'data-skeleton';
            html = html.replace(/\s*<!--[^>]*-->(?=\s*<div id="root">)/, '').replace(root, `<div id="root" ${marker}="${escapeHtml(page.path)}">${rendered.html}</div>\n  `);
          }
          writeFileSync(path.join(outDir, page.file), html);
          writeFileSync(path.join(outDir, `${page.file}.br`), brotliCompressSync(html));
          writeFileSync(path.join(outDir, `${page.file}.gz`), gzipSync(html, { level: 9 }));
        }
        const manifest = pages.map(({ file, path: pagePath, except = [], onlyWithCookies }) => ({ file, path: pagePath, except, ...(onlyWithCookies ? { onlyWithCookies } : {}) }));
        writeFileSync(path.join(outDir, 'pages.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      } finally {
        await server?.close();
      }
    },
  };
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The HTML files the web build writes beside index.html (apps/web/build/prerender.ts), from
 * its `pages.json`: the prerendered login and signup pages, and the dashboard and the pay
 * pages with their chunks preloaded. Paths compare case-insensitively, as the web app's router does, and a
 * trailing slash is ignored.
 */
interface WebPage {
  file: string;
  path: string;
  except: string[];
}

/** A lookup from a request path to the HTML file it gets: a listed page's, else index.html. */
export type WebPageFor = (pathname: string) => string;

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = pathname.split('/');
  if (want.length !== have.length) return false;
  return want.every((part, index) => {
    const segment = have[index] ?? '';
    return part.startsWith(':') ? segment.length > 0 : part.toLowerCase() === segment.toLowerCase();
  });
}

/** Reads `pages.json` in the built web app; without it (an older build) every path gets index.html. */
export function webPages(webDist: string): WebPageFor {
  const manifest = path.join(webDist, 'pages.json');
  const pages: WebPage[] = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as WebPage[]) : [];
  const present = pages.filter((page) => existsSync(path.join(webDist, page.file)));
  return (pathname) => {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const page = present.find(
      (candidate) => matches(candidate.path, trimmed) && !candidate.except.some((other) => other.toLowerCase() === trimmed.toLowerCase()),
    );
    return page?.file ?? 'index.html';
  };
}

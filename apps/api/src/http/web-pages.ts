import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCookie } from 'cookie';

/**
 * The HTML files the web build writes beside index.html (apps/web/build/prerender.ts), from
 * its `pages.json`: the prerendered login and signup pages, and the dashboard and the pay
 * pages with their chunks preloaded. Paths compare case-insensitively, as the web app's router does, and a
 * trailing slash is ignored. A page listed with `onlyWithCookies` (the dashboard's signed-in
 * skeleton) goes only to a request carrying those cookies; the others get index.html. The cookies
 * are the web app's own session state: they pick which first paint to send, they authenticate
 * nothing (the API reads the Authorization header only).
 */
interface WebPage {
  file: string;
  path: string;
  except: string[];
  onlyWithCookies?: string[];
}

/** A lookup from a request path (and its Cookie header) to the HTML file it gets: a listed page's, else index.html. */
export type WebPageFor = (pathname: string, cookieHeader?: string) => string;

/** The names of the non-empty cookies in a Cookie header. */
function cookieNames(header: string | undefined): Set<string> {
  return new Set(Object.entries(parseCookie(header ?? '')).filter(([, value]) => value !== undefined && value !== '').map(([name]) => name));
}

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
  return (pathname, cookieHeader) => {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const page = present.find(
      (candidate) => matches(candidate.path, trimmed) && !candidate.except.some((other) => other.toLowerCase() === trimmed.toLowerCase()),
    );
    if (page?.onlyWithCookies) {
      const held = cookieNames(cookieHeader);
      if (!page.onlyWithCookies.every((name) => held.has(name))) return 'index.html';
    }
    return page?.file ?? 'index.html';
  };
}

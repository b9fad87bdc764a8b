import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';

/**
 * The pay pages rendered on the server. The web build compiles the checkout's components for
 * Node (apps/web/src/app/checkout-ssr.tsx → apps/web/dist-ssr/checkout-ssr.js); when that file
 * is there at start, a GET of `/web-pay/{urlId}` or `/payment-request/{id}` answers the page's
 * HTML with the payment already in it: the page's public GET is asked of this same server
 * (so the page holds exactly what that GET answers, nothing more), rendered by the same
 * components the browser then hydrates, and embedded as JSON for that hydration. Without the
 * file the page is sent as built and renders in the browser.
 */

/** The module the web build writes (the exports of apps/web/src/app/checkout-ssr.tsx). */
export interface CheckoutRenderer {
  firstReadOf: (pathname: string) => string | undefined;
  renderCheckoutPage: (pathname: string, answer: { status: number; body: unknown }) => Promise<{ html: string; title: string | undefined } | undefined>;
}

export const checkoutRendererFile = (webSsrDir: string) => path.join(webSsrDir, 'checkout-ssr.js');

/** Loads the renderer when the web build made one; undefined otherwise (the pages render in the browser). */
export async function loadCheckoutRenderer(webSsrDir: string): Promise<CheckoutRenderer | undefined> {
  const file = checkoutRendererFile(webSsrDir);
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as CheckoutRenderer;
}

/**
 * JSON safe inside a `<script>` element: `<` (so no `</script>` or `<!--` can end or change
 * the element), `>`, `&` and the two line separators become `\u` escapes, which JSON.parse reads
 * back as the same characters.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What the web app reads (apps/web/src/app/first-read.ts). */
const FIRST_READ_ELEMENT_ID = 'first-read';


/**
 * The built page's HTML with the rendered markup in #root (replacing the spinner), the page's
 * title, and the answer it was rendered from (the script goes before the entry's, so it is
 * in the document when the entry runs). `html` and `title` come escaped from React.
 */
export function serverRenderedPage(template: string, rendered: { html: string; title: string | undefined }, answer: { status: number; body: unknown }): string {
  let html = template;
  if (rendered.title) html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${rendered.title}</title>`);
  const root = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;
  return html.replace(
    root,
    (_match, end: string) =>
      `<div id="root">${rendered.html}</div>\n    <script type="application/json" id="${FIRST_READ_ELEMENT_ID}" data-status="${answer.status}">${scriptJson(answer.body)}</script>${end}`,
  );
}

/** Each built HTML file read once. */
export function templates(webDist: string): (file: string) => string {
  const read = new Map<string, string>();
  return (file) => {
    let html = read.get(file);
    if (html === undefined) {
      html = readFileSync(path.join(webDist, file), 'utf8');
      read.set(file, html);
    }
    return html;
  };
}

/**
 * A rendered page in the encoding the browser prefers (brotli, else gzip, else none), as the
 * static files are sent from their copies. Brotli at quality 5: a pay page's HTML (its inline
 * stylesheet is most of it) shrinks about as much as at 11, in a fraction of the time.
 */
export function compressedHtml(html: string, acceptEncoding: string | undefined): { body: Buffer | string; encoding: 'br' | 'gzip' | undefined } {
  const encoding = acceptEncoding ? negotiate(acceptEncoding, ['br', 'gzip']) : null;
  if (encoding === 'br') return { body: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }), encoding };
  if (encoding === 'gzip') return { body: gzipSync(html), encoding };
  return { body: html, encoding: undefined };
}

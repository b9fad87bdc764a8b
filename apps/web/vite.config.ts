import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { htmlPages } from './build/prerender.ts';
import { routeSizeReport } from './build/route-sizes.ts';
import { ssrBuild } from './build/ssr.ts';
import { COOKIE_NAMES } from './src/lib/cookies.ts';

/** React Router's dist/ folder (its package exports hide dist/production). */
const reactRouterDist = path.resolve(path.dirname(createRequire(import.meta.url).resolve('react-router')), '..');

/** The API server of `npm start` (apps/api); the dev server forwards API paths to it. */
const apiTarget = 'http://localhost:3000';

/** Every route but the pay pages starts the portal app (the router), then its page's chunks. */
const portalApp = 'app/portal-app.tsx';
/** Every signed-in page renders inside the portal gate and shell, a lazy chunk of its own. */
const portal = 'features/portal/components/PortalGate.tsx';
/** A pay page opened from outside starts the checkout app (no router), then its page. */
const checkoutApp = 'app/checkout-app.tsx';

/**
 * React DOM is the one chunk both apps need, and two thirds of the checkout: the page asks for
 * it (and what it imports) at once, beside the entry, instead of after the entry has chosen an
 * app. Vite preloads only an entry's static imports, and this entry has none on purpose.
 */
function preloadSharedChunk(name: string): Plugin {
  return {
    name: 'kestrel-preload-shared-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter((output) => output.type === 'chunk');
        const shared = chunks.find((chunk) => chunk.name === name);
        if (!shared) throw new Error(`No chunk named ${name} to preload`);
        return [...shared.imports, shared.fileName].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: {
    // React Router 7's package exports point at its development build only (a known, open
    // issue upstream); production builds take its production files, without dev warnings.
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: path.join(reactRouterDist, 'production/index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'production/dom-export.mjs') },
          ]
        : [],
  },
  // The pay pages' server renderer (build/ssr.ts): the components only, no HTML, CSS or reports.
  plugins: isSsrBuild ? [react()] : browserPlugins(),
  ssr: { noExternal: ['@kestrel/shared'] },
  server: {
    proxy: {
      '/v1': apiTarget,
      '/data': apiTarget,
      '/dev': apiTarget,
    },
  },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // Every browser the app supports knows <link rel="modulepreload">: no polyfill in the entry.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
            // React and the router change less often than the app: their chunks stay cached across
            // releases. The router is a chunk of its own because the checkout does not use it. Other
            // libraries go with the pages that use them, so a page downloads only those.
            codeSplitting: {
              groups: [
                { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
                { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
                // The first pages' form basics (login, signup and the two pay pages use them; the tabs
                // only the pay pages, 0.7 KB more for the sign-in pages): one chunk instead of four,
                // each of which costs a request and its gzip frame on the budgeted pay pages. The step-up
                // answer codes (a few bytes the pay pages' wallet form tells a refusal by) join them.
                { name: 'form-basics', test: /src[\\/](components[\\/](FloatingField|Tabs)|lib[\\/](plain-form|hydrated)|step-up-codes)\.tsx?$/ },
                // The pay pages' other small shared pieces (the idempotency key, the card and money
                // helpers, the select field): one chunk instead of five on both budgeted pages. The
                // sign-in pages' status card then brings it too (2 KB more there; they have no budget,
                // and Lighthouse measured them at 99-100).
                // The session's cookies (lib/cookies.ts and js-cookie) and the payer's messages join
                // them: the pay pages' wallet sign-in and the dashboard's early reads
                // (app/portal-early-reads.ts) both need the cookies, both pay pages the messages, and
                // chunks of their own would cost both budgeted pages more requests and frames.
                { name: 'pay-basics', test: /((web[\\/]src[\\/](lib[\\/](idempotency-key|money|cookies)|components[\\/]SelectField)|shared[\\/]src[\\/](card|money|payer-messages))\.tsx?|node_modules[\\/]js-cookie[\\/].*)$/ },
              ],
            },
          },
        },
      },
}));

function browserPlugins(): PluginOption[] {
  return [
    react(),
    tailwindcss(),
    // Brotli and gzip copies made once at build time; the server sends the one the browser accepts.
    preloadSharedChunk('react'),
    // Login and signup paint from prerendered HTML; the pay pages preload their app and page.
    htmlPages(
      [
        { file: 'login.html', path: '/login', prerender: 'page', scriptsAfterPaint: true, preload: [portalApp, 'features/auth/pages/LoginPage.tsx'] },
        { file: 'signup.html', path: '/signup', prerender: 'page', scriptsAfterPaint: true, preload: [portalApp, 'features/auth/pages/SignupPage.tsx'] },
        // Where signing in lands: it paints its skeleton (the shell, the heading, the counters
        // loading), to a browser holding a session only (a visitor is sent on to /login); its
        // scripts start after that paint, all at once rather than one after another (entry,
        // app, router, route). Started before it, they ran before the first paint on a fast
        // machine, and Lighthouse's simulation then counted their downloads into it (FCP and
        // LCP 2.1-2.5 s instead of 0.7-1.1 s).
        {
          file: 'dashboard.html',
          path: '/dashboard',
          prerender: 'skeleton',
          scriptsAfterPaint: true,
          onlyWithCookies: [COOKIE_NAMES.userId, COOKIE_NAMES.accessToken],
          preload: ['app/portal-early-reads.ts', portalApp, portal, 'features/dashboard/pages/DashboardPage.tsx'],
        },
        { file: 'web-pay.html', path: '/web-pay/:urlId', scriptsAfterPaint: true, preload: [checkoutApp, 'features/checkout/pages/CheckoutPage.tsx'] },
        {
          file: 'payment-request.html',
          path: '/payment-request/:pRequestURLId',
          except: ['/payment-request/new'],
          scriptsAfterPaint: true,
          preload: [checkoutApp, 'features/checkout/pages/PaymentRequestPayPage.tsx'],
        },
      ],
      fileURLToPath(import.meta.url),
    ),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
    routeSizeReport([
      { route: '/login', modules: [portalApp, 'features/auth/pages/LoginPage.tsx'] },
      { route: '/signup', modules: [portalApp, 'features/auth/pages/SignupPage.tsx'] },
      // Issue 10: the pay pages download at most 100 KB of JavaScript, gzipped.
      { route: '/web-pay/… (checkout)', modules: [checkoutApp, 'features/checkout/pages/CheckoutPage.tsx'], budgetKB: 100 },
      { route: '/payment-request/… (pay)', modules: [checkoutApp, 'features/checkout/pages/PaymentRequestPayPage.tsx'], budgetKB: 100 },
      { route: '/payment-request/details/…', modules: [portalApp, portal, 'features/payment-requests/pages/PaymentRequestDetailsPage.tsx'] },
      { route: '/dashboard', modules: [portalApp, portal, 'features/dashboard/pages/DashboardPage.tsx'] },
      { route: '/fund-transfer/…/recipient/…', modules: [portalApp, portal, 'features/transfers/pages/TransferFormPage.tsx'] },
      { route: '/transactions', modules: [portalApp, portal, 'features/transactions/pages/TransactionsPage.tsx'] },
      { route: '/my-account', modules: [portalApp, portal, 'features/accounts/pages/MyAccountPage.tsx'] },
      { route: '/ops', modules: [portalApp, 'features/ops/components/OpsLayout.tsx', 'features/ops/pages/OverviewPage.tsx'] },
    ]),
    // The pay pages' server renderer, compiled after the browser build (build/ssr.ts).
    ssrBuild('src/app/checkout-ssr.tsx', 'dist-ssr', fileURLToPath(import.meta.url)),
  ];
}

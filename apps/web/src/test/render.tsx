import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppToaster } from '../app/toaster.tsx';
import { startSession } from '../lib/session.ts';

/** A signed-in holder working on account A100 (the cookies login writes); ended after each test. */
export const signedIn = { userId: 'user-1', token: 'token-1', account: { accountNumber: 'A100', accountEmail: 'ada@example.test', userName: 'ada' } };
export const signIn = () => startSession(signedIn);

/**
 * Renders a page as the portal would (a query client, the router at `path`, the toaster) and
 * answers Testing Library's queries plus a user-event session. Each test has its own query
 * client, so no answer is shared between tests. `routes` adds the pages a form navigates to.
 */
export function renderPage(page: ReactElement, options: { path?: string; pattern?: string; routes?: Record<string, ReactElement> } = {}): RenderResult & { user: UserEvent; router: ReturnType<typeof createMemoryRouter> } {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const path = options.path ?? '/';
  const router = createMemoryRouter(
    [
      { path: options.pattern ?? path, element: page },
      ...Object.entries(options.routes ?? {}).map(([routePath, element]) => ({ path: routePath, element })),
    ],
    { initialEntries: [path] },
  );
  // No pause between keystrokes (delay: null): the tests stay fast on a busy machine.
  const user = userEvent.setup({ delay: null });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, user, router };
}

export interface StubbedCall {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

/**
 * Stubs `fetch` (the network, outside the web app) with answers by `METHOD /path`; each answer
 * is the API's envelope as the server writes it. Records the calls. An unlisted call fails the
 * test loudly.
 */
/** What every page may read whatever the test is about (the public settings). */
const defaults: Record<string, { status: number; body: unknown }> = {
  'GET /v1/config': { status: 200, body: { status: 'success', data: { marketingUrl: 'https://kestrel.example' } } },
};

/** The calls that change something (not GET), as `[method, path, body]`. */
export const writes = (calls: StubbedCall[]) => calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body]);

export function stubApi(answers: Record<string, { status: number; body: unknown } | ((call: StubbedCall) => { status: number; body: unknown })>): StubbedCall[] {
  const calls: StubbedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
      const call = { method, path: url.pathname + url.search, body, headers: new Headers(init?.headers) };
      calls.push(call);
      const answer = answers[`${method} ${call.path}`] ?? answers[`${method} ${url.pathname}`] ?? defaults[`${method} ${url.pathname}`];
      if (!answer) throw new Error(`unexpected request ${method} ${call.path}`);
      const { status, body: responseBody } = typeof answer === 'function' ? answer(call) : answer;
      return new Response(JSON.stringify(responseBody), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

export const success = (data: unknown, message?: string) => ({ status: 200, body: { status: 'success', ...(message ? { message } : {}), data } });

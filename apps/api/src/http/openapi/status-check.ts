import type { FastifyInstance } from 'fastify';

/*
 * Outside production, every answer's route and status is noted; the test suite's setup file
 * (apps/api/test/setup-openapi-statuses.ts) compares them with the reference after each test
 * file and fails the file that made the server answer a status its operation does not list,
 * so the whole suite's traffic keeps the document honest. Noting is cheap; the document is
 * built only for the comparison, outside the tests' own time.
 */

export interface UndocumentedAnswer {
  route: string;
  status: number;
}

type Operations = Record<string, Record<string, { responses?: Record<string, unknown> }>>;

const noted = new Map<FastifyInstance, Set<string>>();
const closed = new WeakSet<FastifyInstance>();

export function registerStatusCheck(app: FastifyInstance): void {
  const answers = new Set<string>();
  noted.set(app, answers);
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (url) answers.add(`${request.method === 'HEAD' ? 'GET' : request.method} ${url} ${reply.statusCode}`);
    return payload;
  });
  app.addHook('onClose', async () => {
    closed.add(app);
  });
}

/** The answers noted since the last call whose status their operation does not list; forgets what it checked. */
export function takeUndocumentedAnswers(): UndocumentedAnswer[] {
  const found: UndocumentedAnswer[] = [];
  for (const [app, answers] of noted) {
    if (answers.size === 0) continue;
    const paths = (app.swagger() as { paths?: Operations }).paths ?? {};
    for (const answer of answers) {
      const [method = '', url = '', statusText = ''] = answer.split(' ');
      const operation = paths[url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
      // Hidden routes (the reference itself, health probes, development pages) are not documented.
      if (!operation) continue;
      const responses = operation.responses ?? {};
      if (!(statusText in responses) && !(`${statusText[0]}XX` in responses) && !('default' in responses)) {
        found.push({ route: `${method} ${url}`, status: Number(statusText) });
      }
    }
    answers.clear();
  }
  // A closed app has nothing more to say once checked.
  for (const app of noted.keys()) if (closed.has(app)) noted.delete(app);
  return found;
}

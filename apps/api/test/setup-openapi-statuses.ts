import { afterAll, expect } from 'vitest';
import { takeUndocumentedAnswers } from '../src/http/openapi/status-check.ts';
import { takeUndeclaredRefusals } from '../src/http/refusal-check.ts';

/*
 * Runs around every test file: the file fails when the server answered a status that the
 * API reference does not list for that operation (status-check.ts notes the answers), or raised a
 * refusal its route does not declare (refusal-check.ts).
 */
afterAll(() => {
  // Both taken before either check, so one file's findings never spill into the next file's.
  const undeclared = takeUndeclaredRefusals();
  const unique = [...new Set(takeUndocumentedAnswers().map((answer) => `${answer.route} answered ${answer.status}`))];
  expect(undeclared, "refusals a route raised without declaring them (add them to the route's refusals(...), apps/api/src/http/refusals.ts)").toEqual([]);
  expect(unique, 'answers with a status the OpenAPI document does not list (add it in apps/api/src/http/openapi/)').toEqual([]);
});

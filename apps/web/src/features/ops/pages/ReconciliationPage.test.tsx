import { reconciliationMessages as rm, reconciliationMismatchView, reconciliationRunView, type ReconciliationMismatchView } from '@kestrel/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { ReconciliationPage } from './ReconciliationPage.tsx';

const mismatch = (overrides: Partial<ReconciliationMismatchView> = {}) =>
  reconciliationMismatchView.parse({
    _id: 'mm-1',
    processor: 'sandbox',
    day: '2026-11-20',
    kind: 'charge_not_recorded',
    reference: 'sbx_0a1b2c',
    target: 'payment',
    recordId: 'pay-1',
    accountNumber: 'A100',
    refundId: null,
    currency: 'USD',
    processorAmount: 25.5,
    ledgerAmount: null,
    transactionId: null,
    card: 'visa ending 0259',
    processorStatus: 'approved',
    ledgerStatus: null,
    processorAt: '2026-11-20T10:00:00.000Z',
    ledgerAt: null,
    status: 'open',
    resolution: null,
    resolutionReason: null,
    resolvedBy: null,
    resolvedAt: null,
    firstSeenAt: '2026-11-21T00:15:00.000Z',
    lastSeenAt: '2026-11-21T00:15:00.000Z',
    actions: ['void', 'record', 'resolve'],
    ...overrides,
  });

const run = reconciliationRunView.parse({
  _id: 'run-1',
  processor: 'sandbox',
  day: '2026-11-20',
  trigger: 'job',
  ranAt: '2026-11-21T00:15:00.000Z',
  processorRecords: 12,
  ledgerRecords: 11,
  mismatches: 1,
  open: 1,
});

function fieldError(input: HTMLElement): string | null {
  const errorId = (input.getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-error'));
  return errorId ? (document.getElementById(errorId)?.textContent ?? null) : null;
}

const render = () => renderPage(<ReconciliationPage />, { path: '/ops/reconciliation', pattern: '/ops/reconciliation' });

describe("the operator console's reconciliation page", () => {
  beforeEach(signIn);

  it('shows a difference with both sides and its actions; an action needs a reason and sends it', async () => {
    let recorded = false;
    const calls = stubApi({
      'GET /v1/operator/reconciliation/mismatches': () => success(recorded ? [] : [mismatch()]),
      'GET /v1/operator/reconciliation/runs': success([run]),
      'POST /v1/operator/reconciliation/mismatches/mm-1/record': () => {
        recorded = true;
        return success(mismatch({ status: 'resolved', resolution: 'recorded', actions: [] }), rm.recorded);
      },
    });
    const { user } = render();
    const card = await screen.findByRole('article', { name: 'Charged but not recorded: sbx_0a1b2c' });
    expect(within(card).getByText('US$ 25.50 · approved')).toBeTruthy();
    expect(within(card).getByText('No record')).toBeTruthy();
    expect(within(card).getByText('visa ending 0259')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Payment pay-1' }).getAttribute('href')).toBe('/ops/payments/pay-1');
    expect(within(card).getAllByRole('button').map((button) => button.textContent)).toEqual(['Void at the processor', 'Record in the books', 'Mark resolved']);

    await user.click(within(card).getByRole('button', { name: 'Record in the books' }));
    const reason = within(card).getByLabelText('Reason (kept in the audit log)');
    await waitFor(() => expect(fieldError(reason)).toBe('Reason is required'));
    expect(writes(calls)).toEqual([]);

    // Enter in the reason field acts on nothing.
    await user.type(reason, 'Processor timeout; the charge is real{Enter}');
    expect(writes(calls)).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Record in the books' }));
    expect(await screen.findByText(rm.recorded)).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/operator/reconciliation/mismatches/mm-1/record', { reason: 'Processor timeout; the charge is real' }]]);
    expect(await screen.findByText('No open differences: the processor and the ledger agree.')).toBeTruthy();
  });

  it("reconciles a day and shows the server's refusal of a day not begun under the field", async () => {
    const calls = stubApi({
      'GET /v1/operator/reconciliation/mismatches': success([]),
      'GET /v1/operator/reconciliation/runs': success([run]),
      'POST /v1/operator/reconciliation/runs': (call) =>
        (call.body as { day: string }).day === '2999-01-01'
          ? { status: 400, body: { status: 'error', error: rm.dayInFuture, code: 'day_in_future', fields: { day: rm.dayInFuture } } }
          : success(run, rm.ran(1)),
    });
    const { user } = render();
    const day = await screen.findByLabelText('Day (UTC)');
    await user.clear(day);
    await user.type(day, '2999-01-01');
    await user.click(screen.getByRole('button', { name: 'Reconcile' }));
    await waitFor(() => expect(fieldError(day)).toBe(rm.dayInFuture));
    await user.clear(day);
    await user.type(day, '2026-11-20');
    await user.click(screen.getByRole('button', { name: 'Reconcile' }));
    expect(await screen.findByText('Reconciled: 1 difference found')).toBeTruthy();
    expect(writes(calls).at(-1)).toEqual(['POST', '/v1/operator/reconciliation/runs', { day: '2026-11-20' }]);
    expect(await screen.findByRole('heading', { name: 'Open differences of 2026-11-20' })).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Run of 2026-11-20' })).toBeTruthy();
  });
});

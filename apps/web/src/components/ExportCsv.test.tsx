import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { savedFiles } from '../test/downloads.ts';
import { renderPage, stubApi, type StubbedCall } from '../test/render.tsx';
import { ExportCsv, exportMessages } from './ExportCsv.tsx';
import { fieldError } from '../test/form.ts';

const path = '/v1/export/transactions/A100';
const csv = { status: 200, body: 'Tnx At (UTC),TnxId' };

async function openExport() {
  const view = renderPage(<ExportCsv path={path} filename="transactions-A100.csv" what="transactions" />);
  await view.user.click(await screen.findByRole('button', { name: 'Export CSV' }));
  return view;
}

describe('the Export CSV control', () => {
  const saved = savedFiles();

  it("refuses a 'To' before 'From' with a message under 'To', and asks nothing of the server", async () => {
    const calls = stubApi({ [`GET ${path}`]: csv });
    const { user } = await openExport();
    expect(screen.getByRole('button', { name: 'Export CSV' }).getAttribute('aria-expanded')).toBe('true');
    // The form takes the focus: a keyboard user types the dates at once.
    expect(document.activeElement).toBe(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2026-11-10');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(fieldError('To')).toBe(exportMessages.toBeforeFrom);
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((call) => call.path.startsWith('/v1/export'))).toEqual([]);
    expect(saved).toEqual([]);

    // Putting it right clears the message, and the download goes.
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-11-10');
    expect(fieldError('To')).toBeNull();
  });

  it('downloads with the session token in a header (never in the URL), the range as from/to, and saves the file named for the range', async () => {
    const calls: StubbedCall[] = stubApi({ [`GET ${path}`]: csv });
    const { user } = await openExport();
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Downloaded transactions-A100_2026-11-01_2026-11-01.csv')).toBeTruthy();
    const exportCall = calls.find((call) => call.path.startsWith('/v1/export'))!;
    expect(exportCall.path).toBe(`${path}?from=2026-11-01&to=2026-11-01`);
    expect(exportCall.headers.get('authorization')).toBe('token-1');
    expect(saved).toHaveLength(1);
  });

  it('downloads everything when both dates stay empty', async () => {
    const calls = stubApi({ [`GET ${path}`]: csv });
    const { user } = await openExport();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Downloaded transactions-A100.csv')).toBeTruthy();
    expect(calls.find((call) => call.path.startsWith('/v1/export'))!.path).toBe(path);
  });

  it("shows the server's message when the export is refused, and Escape closes the form back to its button", async () => {
    stubApi({ [`GET ${path}`]: { status: 404, body: { status: 'error', error: 'Not found', code: 'not_found' } } });
    const { user } = await openExport();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not found');
    expect(saved).toEqual([]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Export transactions as CSV' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export CSV' }));
  });
});

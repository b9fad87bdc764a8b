import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage, signIn, stubApi, success } from '../../../test/render.tsx';
import { Statements } from './Statements.tsx';

const months = { accountNumber: 'A100', months: [{ month: '2026-11', complete: false }, { month: '2026-10', complete: true }] };
const statement = {
  format: 'kestrel-statement:v1',
  accountNumber: 'A100',
  accountHolderName: 'রহিম উদ্দিন',
  currency: 'USD',
  month: '2026-10',
  periodStart: '2026-10-01T00:00:00.000000Z',
  periodEnd: '2026-11-01T00:00:00.000000Z',
  complete: true,
  generatedAt: '2026-11-01T00:05:00.000000Z',
  openingBalanceCents: '0',
  closingBalanceCents: '2499',
  movements: [],
  publicKey: 'a'.repeat(64),
  signature: 'b'.repeat(128),
};

describe('My Account → Statements', () => {
  let saved: { blob: Blob; name: string }[];
  beforeEach(() => {
    signIn();
    saved = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push({ blob: blob as Blob, name: '' });
      return 'blob:statement';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.at(-1)!.name = this.download;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists the months newest first, the current one "so far", each with its PDF and JSON', async () => {
    stubApi({ 'GET /v1/statement/account/A100': success(months) });
    renderPage(<Statements accountNumber="A100" />);
    const list = await screen.findByRole('list', { name: 'Statements' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/2026/).textContent)).toEqual(['November 2026 (so far)', 'October 2026']);
    expect(within(rows[1]!).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Download PDF: October 2026', 'Download JSON: October 2026']);
  });

  it('downloads the PDF and the signed JSON (its data, as the verifier reads it) with the session token, named for the month', async () => {
    const calls = stubApi({
      'GET /v1/statement/account/A100': success(months),
      'GET /v1/statement/account/A100/2026-10/pdf': { status: 200, body: '%PDF-1.3' },
      'GET /v1/statement/account/A100/2026-10': success(statement),
    });
    const { user } = renderPage(<Statements accountNumber="A100" />);
    await user.click(await screen.findByRole('button', { name: 'Download PDF: October 2026' }));
    expect(await screen.findByText('Downloaded statement-A100-2026-10.pdf')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download JSON: October 2026' }));
    expect(await screen.findByText('Downloaded statement-A100-2026-10.json')).toBeTruthy();
    expect(saved.map((file) => file.name)).toEqual(['statement-A100-2026-10.pdf', 'statement-A100-2026-10.json']);
    expect(JSON.parse(await saved[1]!.blob.text())).toEqual(statement);
    const downloads = calls.filter((call) => call.path.includes('/2026-10'));
    expect(downloads.map((call) => call.path)).toEqual(['/v1/statement/account/A100/2026-10/pdf', '/v1/statement/account/A100/2026-10']);
    expect(downloads.every((call) => call.headers.get('authorization') === 'token-1')).toBe(true);
  });

  it("shows the server's message when a download is refused", async () => {
    stubApi({
      'GET /v1/statement/account/A100': success(months),
      'GET /v1/statement/account/A100/2026-10/pdf': { status: 404, body: { status: 'error', error: 'There is no statement for this month.', code: 'no_statement' } },
    });
    const { user } = renderPage(<Statements accountNumber="A100" />);
    await user.click(await screen.findByRole('button', { name: 'Download PDF: October 2026' }));
    expect((await screen.findByText('There is no statement for this month.')).getAttribute('class')).toContain('text-danger-700');
    expect(saved).toEqual([]);
  });
});

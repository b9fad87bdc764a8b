import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { savedFiles } from '../../../test/downloads.ts';
import { renderPage, stubApi, success } from '../../../test/render.tsx';
import { DownloadProof } from './DownloadProof.tsx';

const notSealed = 'This transaction is not sealed yet. Please try again in a minute.';

describe('Download proof', () => {
  const saved = savedFiles();

  it("saves the proof's JSON (the answer's data, as ledger:prove reads it), fetched with the session token", async () => {
    const hash = 'ab'.repeat(32);
    const at = '2026-11-25T10:00:00.000000Z';
    const proof = {
      record: { transactionId: 'TX1', kind: 'transfer', transactionFor: 'Fund Transfer', currency: 'USD', amountCents: '1250', feeCents: '0', createdAt: at, postings: [['A100', '-1250'], ['A200', '1250']] },
      leafIndex: 0,
      treeSize: 1,
      path: [],
      seal: { sealNo: 1, fromMark: '1', toMark: '1', firstCreatedAt: at, lastCreatedAt: at, sealedAt: at, transactionCount: 1, merkleRoot: hash, previousSealHash: hash, sealHash: hash, signature: 'cd'.repeat(64) },
    };
    const calls = stubApi({ 'GET /v1/ledger/proof/TX1': success(proof) });
    const { user } = renderPage(<DownloadProof transactionId="TX1" />);
    await user.click(await screen.findByRole('button', { name: 'Download proof of transaction TX1' }));
    expect(await screen.findByText('Proof saved as proof-TX1.json')).toBeTruthy();
    expect(calls.find((call) => call.path === '/v1/ledger/proof/TX1')!.headers.get('authorization')).toBe('token-1');
    expect(JSON.parse(await saved[0]!.text())).toEqual(proof);
  });

  it('says a transaction in its first minute is not sealed yet, and saves nothing', async () => {
    stubApi({ 'GET /v1/ledger/proof/TX2': { status: 409, body: { status: 'error', error: notSealed, code: 'not_sealed_yet' } } });
    const { user } = renderPage(<DownloadProof transactionId="TX2" />);
    await user.click(await screen.findByRole('button', { name: 'Download proof of transaction TX2' }));
    expect(await screen.findByText(notSealed)).toBeTruthy();
    expect(saved).toEqual([]);
  });
});

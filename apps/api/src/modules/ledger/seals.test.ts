import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ledgerLeafText, rootFromInclusionProof, verifyLedgerProof, verifySealChain, type LedgerProof, type PublishedSeals } from '@kestrel/shared';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createHolder } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { inclusionPath, leafHash, merkleRoot } from './merkle.ts';
import { sealLedger, verifySeals } from './seals.ts';

/** alice pays bob through the API and answers the ledger transaction id. */
async function transferred(cents: number) {
  const alice = await createHolder(10_000);
  const bob = await createHolder();
  const sent = await api('POST', '/v1/account/transfer_balance', {
    token: alice.user.token,
    body: { debitAccountKey: alice.account.userName, creditAccountKey: bob.account.userName, currency: 'USD', balance: cents / 100, tpin: alice.account.tpin },
  });
  expect(sent.status).toBe(200);
  const listed = await api('GET', `/v1/transaction/account/${alice.account.accountNumber}`, { token: alice.user.token });
  const transactionId: string = listed.body.data[0].transactions[0].transactionId;
  return { alice, bob, transactionId };
}

/** Seals until the sealer has reached this transaction (it waits for transactions still in flight elsewhere). */
async function sealThrough(transactionId: string) {
  const { db, config } = await testServer();
  for (let tries = 0; tries < 50; tries++) {
    await sealLedger(db, config.secretKey);
    const sealed = await sql<{ one: number }>`
      SELECT 1 AS one FROM ledger_transactions t JOIN ledger_seals s ON t.created_xid >= s.from_mark AND t.created_xid < s.to_mark
      WHERE t.transaction_id = ${transactionId}`.execute(db);
    if (sealed.rows.length) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`transaction ${transactionId} was never sealed`);
}

async function published(): Promise<PublishedSeals> {
  const answer = await api('GET', '/v1/ledger/seals?limit=500');
  expect(answer.status).toBe(200);
  let seals = answer.body.data.seals;
  // More than a page: read on (the chain check needs every seal).
  while (answer.body.data.seals.length === 500 && seals.length % 500 === 0) {
    const next = await api('GET', `/v1/ledger/seals?after=${seals.at(-1).sealNo}&limit=500`);
    if (next.body.data.seals.length === 0) break;
    seals = [...seals, ...next.body.data.seals];
  }
  return { publicKey: answer.body.data.publicKey, seals };
}

describe('ledger seals: a ledger anyone can verify (issue 26)', () => {
  it('builds RFC 9162 Merkle trees whose every inclusion path leads the verifier to the root, for every tree size up to 17', async () => {
    for (let size = 1; size <= 17; size++) {
      const texts = Array.from({ length: size }, (_, i) => `leaf ${i}`);
      const leaves = texts.map(leafHash);
      const root = merkleRoot(leaves).toString('hex');
      for (let index = 0; index < size; index++) {
        const path = inclusionPath(index, leaves).map((hash) => hash.toString('hex'));
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)));
        expect(await rootFromInclusionProof(index, size, texts[index]!, path)).toBe(root);
        // Another leaf's text, or another position, leads elsewhere.
        expect(await rootFromInclusionProof(index, size, `${texts[index]}!`, path)).not.toBe(root);
        if (size > 1) expect(await rootFromInclusionProof((index + 1) % size, size, texts[index]!, path)).not.toBe(root);
      }
    }
  });

  it('publishes signed, chained seals to anyone, and serves a proof of a transaction only to the accounts it touched', async () => {
    const { alice, bob, transactionId } = await transferred(1_234);
    const before = await api('GET', `/v1/ledger/proof/${transactionId}`, { token: alice.user.token });
    // Either not sealed yet (409) or, if a run of this suite already sealed it, a proof: never anything else.
    expect([200, 409]).toContain(before.status);
    if (before.status === 409) expect(before.body.error).toBe('This transaction is not sealed yet. Please try again in a minute.');

    await sealThrough(transactionId);
    const seals = await published();
    expect(seals.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifySealChain(seals)).toEqual([]);

    for (const who of [alice, bob]) {
      const answer = await api('GET', `/v1/ledger/proof/${transactionId}`, { token: who.user.token });
      expect(answer.status).toBe(200);
      const proof: LedgerProof = answer.body.data;
      expect(proof.record.transactionId).toBe(transactionId);
      expect(proof.record.amountCents).toBe('1234');
      expect(proof.record.postings).toEqual([
        [alice.account.accountNumber, '-1234'],
        [bob.account.accountNumber, '1234'],
      ]);
      expect(await verifyLedgerProof(proof, seals)).toEqual({ ok: true, sealNo: proof.seal.sealNo });
    }

    const stranger = await createHolder();
    expect((await api('GET', `/v1/ledger/proof/${transactionId}`, { token: stranger.user.token })).status).toBe(404);
    expect((await api('GET', `/v1/ledger/proof/${transactionId}`)).status).toBe(401);
    expect((await api('GET', '/v1/ledger/proof/no-such-transaction', { token: alice.user.token })).status).toBe(404);
  });

  it('the verifier rejects a proof after any amount, posting or order is changed, and after its seal is replaced', async () => {
    const { alice, transactionId } = await transferred(2_500);
    await sealThrough(transactionId);
    const seals = await published();
    const proof: LedgerProof = (await api('GET', `/v1/ledger/proof/${transactionId}`, { token: alice.user.token })).body.data;
    expect((await verifyLedgerProof(proof, seals)).ok).toBe(true);

    const changed = (change: (copy: LedgerProof) => void) => {
      const copy: LedgerProof = structuredClone(proof);
      change(copy);
      return verifyLedgerProof(copy, seals);
    };
    expect((await changed((p) => { p.record.amountCents = '25000'; })).ok).toBe(false);
    expect((await changed((p) => { p.record.postings[1]![1] = '2499'; })).ok).toBe(false);
    expect((await changed((p) => { p.record.postings.reverse(); })).ok).toBe(false);
    expect((await changed((p) => { p.record.createdAt = '2000-01-01T00:00:00.000000Z'; })).ok).toBe(false);
    if (proof.treeSize > 1) expect((await changed((p) => { p.leafIndex = (p.leafIndex + 1) % p.treeSize; })).ok).toBe(false);

    // A replaced seal: another root, re-hashed, but not signed by Kestrel's key.
    const forged: PublishedSeals = structuredClone(seals);
    const target = forged.seals.find((seal) => seal.sealNo === proof.seal.sealNo)!;
    target.merkleRoot = leafHash(ledgerLeafText({ ...proof.record, amountCents: '1' })).toString('hex');
    const verdict = await verifyLedgerProof({ ...proof, seal: target }, forged);
    expect(verdict).toMatchObject({ ok: false });
    expect((await verifySealChain(forged)).length).toBeGreaterThan(0);
  });

  it('ledger:verify notices a posting edited directly in SQL after sealing', async () => {
    const { db, config } = await testServer();
    const { transactionId } = await transferred(700);
    await sealThrough(transactionId);
    expect((await verifySeals(db, config.secretKey)).problems).toEqual([]);

    // The edit happens in a transaction that is rolled back, so the shared test database is never left broken.
    const problems = await db
      .transaction()
      .execute(async (trx) => {
        // Bypasses the append-only trigger, as someone with the database's superuser would.
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
        await sql`
          UPDATE ledger_postings SET amount_cents = amount_cents * 10
          WHERE ledger_transaction_id = (SELECT id FROM ledger_transactions WHERE transaction_id = ${transactionId})`.execute(trx);
        const report = await verifySeals(trx, config.secretKey);
        throw Object.assign(new Error('roll back'), { report });
      })
      .catch((error: { report?: { problems: string[] } }) => error.report?.problems);
    expect(problems).toEqual([expect.stringMatching(/^seal \d+: the ledger no longer matches it/)]);
    expect((await verifySeals(db, config.secretKey)).problems).toEqual([]);
  });

  it('npm run ledger:prove checks downloaded files with no database: exit 0 for the real proof, 1 for a changed one', async () => {
    const { alice, transactionId } = await transferred(999);
    await sealThrough(transactionId);
    const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-prove-'));
    const proofAnswer = await api('GET', `/v1/ledger/proof/${transactionId}`, { token: alice.user.token });
    const sealsAnswer = await api('GET', '/v1/ledger/seals?limit=500');
    writeFileSync(path.join(dir, 'proof.json'), JSON.stringify(proofAnswer.body));
    writeFileSync(path.join(dir, 'seals.json'), JSON.stringify(sealsAnswer.body));
    const tampered = structuredClone(proofAnswer.body);
    tampered.data.record.amountCents = '99900';
    writeFileSync(path.join(dir, 'tampered.json'), JSON.stringify(tampered));

    const cli = path.resolve(import.meta.dirname, 'prove-cli.ts');
    const run = (file: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', cli, path.join(dir, file), path.join(dir, 'seals.json')], { env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } }).then(
        ({ stdout }) => ({ code: 0, out: stdout }),
        (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
      );
    const good = await run('proof.json');
    expect(good.code).toBe(0);
    expect(good.out).toContain(`OK: transaction ${transactionId}`);
    const bad = await run('tampered.json');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('FAILED: the transaction is not the one sealed');
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { statementMessages, verifyStatement, type AccountStatement, type PublishedSeals } from '@kestrel/shared';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { bangladeshBank, createAccount, createHolder, createUser, fundAccount, transferAs, unique, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createPayment, createStore, type TestStore } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';
import { sealLedger } from '../ledger/seals.ts';
import { buildStatement, monthOf, statementMonths } from './statements.service.ts';

/*
 * Monthly statements (issue 26) over real HTTP: every kind of movement made through the API in
 * the month — funding, a card payment and a wallet payment received with their fees, a refund,
 * a transfer out and a withdrawal — to the cent, the balance the API shows at the end, the
 * signed JSON checked against the published seals with no database, and the PDF.
 */

type Holder = { user: TestUser; account: TestAccount };

const thisMonth = () => monthOf(new Date());
const statementOf = (token: string, accountNumber: string, month = thisMonth()) =>
  api<{ data: AccountStatement; error?: string }>('GET', `/v1/statement/account/${accountNumber}/${month}`, { token });

async function balanceCents(holder: Holder): Promise<number> {
  const response = await api('GET', `/v1/account/${holder.account.accountNumber}`, { token: holder.user.token });
  return Math.round((response.body.data.balance as { amount: number }[])[0]!.amount * 100);
}

/** Seals until the sealer has reached every ledger transaction made so far. */
async function sealEverything() {
  const { db, config } = await testServer();
  for (let tries = 0; tries < 50; tries++) {
    await sealLedger(db, config.secretKey);
    const open = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM ledger_transactions t
      WHERE NOT EXISTS (SELECT 1 FROM ledger_seals s WHERE t.created_xid >= s.from_mark AND t.created_xid < s.to_mark)`.execute(db);
    if (open.rows[0]!.n === '0') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the ledger was never sealed through');
}

async function published(): Promise<PublishedSeals> {
  let seals: PublishedSeals['seals'] = [];
  let publicKey = '';
  for (;;) {
    const page = await api('GET', `/v1/ledger/seals?limit=500&after=${seals.at(-1)?.sealNo ?? 0}`);
    expect(page.status).toBe(200);
    publicKey = page.body.data.publicKey;
    seals = [...seals, ...page.body.data.seals];
    if (page.body.data.seals.length < 500) return { publicKey, seals };
  }
}

/** The store owner's month: every kind of movement, through the API. */
let store: TestStore;
let owner: Holder;
let bob: Holder;
const expectedNets: number[] = [];

beforeAll(async () => {
  store = await createStore();
  owner = { user: store.owner, account: store.account };
  bob = await createHolder();
  const payer = await createHolder(100_000);

  await fundAccount(store.account.accountId, 20_000);
  expectedNets.push(20_000);

  // A card payment of 25.50: 2 % fee, 0.51; the owner gets 24.99.
  const cardPayment = await createPayment(store, { amount: 25.5 });
  expect((await api('POST', `/v1/payment/complete/${cardPayment}`, { body: card('4242424242424242') })).status).toBe(200);
  expectedNets.push(2_499);

  // A wallet payment of 10.00: fee 0.20, the owner gets 9.80.
  const walletPayment = await createPayment(store, { amount: 10 });
  const paid = await api('POST', `/v1/payment/complete/kestrel/${walletPayment}`, { token: payer.user.token, body: { accountNumber: payer.account.accountNumber, tpin: payer.account.tpin } });
  expect(paid.status).toBe(200);
  expectedNets.push(980);

  // The wallet payment refunded in full: the owner gives back 9.80, the fee comes back from revenue.
  const refund = await api('POST', `/v1/payment/refund/${walletPayment}`, { headers: { ...store.headers, 'idempotency-key': unique('rk') }, body: { amount: '10.00', reason: 'Returned' } });
  expect(refund.status, JSON.stringify(refund.body)).toBe(200);
  expectedNets.push(-980);

  const sent = await transferAs(owner, bob.account, 12.5);
  expect(sent.status).toBe(200);
  expectedNets.push(-1_250);

  const withdrawal = await withdrawAs(owner, 30, { body: bangladeshBank });
  expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
  expectedNets.push(-3_000);
});

describe('monthly statements (issue 26)', () => {
  it('adds up to the cent: opening + every movement = closing = the balance the API shows, fees shown', async () => {
    const answer = await statementOf(owner.user.token, owner.account.accountNumber);
    expect(answer.status).toBe(200);
    const statement = answer.body.data;
    expect(statement).toMatchObject({ format: 'kestrel-statement:v1', accountNumber: owner.account.accountNumber, currency: 'USD', month: thisMonth(), complete: false, openingBalanceCents: '0' });
    expect(statement.periodStart).toBe(`${thisMonth()}-01T00:00:00.000000Z`);
    expect(statement.movements.map((movement) => Number(movement.netCents))).toEqual(expectedNets);
    // The running balance after each movement, and the closing balance, to the cent.
    let running = 0;
    for (const movement of statement.movements) {
      running += Number(movement.netCents);
      expect(movement.balanceAfterCents).toBe(String(running));
    }
    expect(statement.closingBalanceCents).toBe(String(running));
    expect(running).toBe(20_000 + 2_499 + 980 - 980 - 1_250 - 3_000);
    expect(await balanceCents(owner)).toBe(running);
    expect(await walletCents(owner.account.accountId)).toBe(running);
    // The payments received show their amount and fee; the owner got the amount less the fee.
    expect(statement.movements[1]).toMatchObject({ amountCents: '2550', feeCents: '51', netCents: '2499' });
    expect(statement.movements[2]).toMatchObject({ amountCents: '1000', feeCents: '20', netCents: '980' });
    // Oldest first.
    const times = statement.movements.map((movement) => movement.createdAt);
    expect([...times].sort()).toEqual(times);

    // Bob's side of the transfer.
    const bobs = (await statementOf(bob.user.token, bob.account.accountNumber)).body.data;
    expect(bobs.movements.map((movement) => movement.netCents)).toEqual(['1250']);
    expect(bobs.closingBalanceCents).toBe('1250');
  });

  it("closes the month: the next month opens at this month's closing balance, and this one is then complete", async () => {
    const server = await testServer();
    const ctx = server.app.ctx;
    const now = new Date();
    const nextMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 12));
    const next = monthOf(nextMonthStart);
    const closed = await buildStatement(ctx, owner.user.userId, owner.account.accountNumber, thisMonth(), 'USD', nextMonthStart);
    expect(closed.complete).toBe(true);
    expect(closed.movements.map((movement) => Number(movement.netCents))).toEqual(expectedNets);
    const following = await buildStatement(ctx, owner.user.userId, owner.account.accountNumber, next, 'USD', nextMonthStart);
    expect(following).toMatchObject({ complete: false, openingBalanceCents: closed.closingBalanceCents, closingBalanceCents: closed.closingBalanceCents, movements: [] });
  });

  it('lists the months since the account was opened, newest first, the current one "so far"', async () => {
    expect(statementMonths(new Date('2026-09-15T10:00:00Z'), new Date('2026-11-01T00:00:00Z'))).toEqual([
      { month: '2026-11', complete: false },
      { month: '2026-10', complete: true },
      { month: '2026-09', complete: true },
    ]);
    expect(statementMonths(new Date('2025-12-31T23:59:59Z'), new Date('2026-01-01T00:00:00Z')).map((entry) => entry.month)).toEqual(['2026-01', '2025-12']);

    const holder = await createHolder();
    const listed = await api('GET', `/v1/statement/account/${holder.account.accountNumber}`, { token: holder.user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual({ accountNumber: holder.account.accountNumber, months: [{ month: thisMonth(), complete: false }] });
    // A month before the account was opened, or after this one, has no statement.
    const before = await statementOf(holder.user.token, holder.account.accountNumber, '2020-01');
    expect(before.status).toBe(404);
    expect(before.body.error).toBe(statementMessages.noSuchMonth);
    expect((await statementOf(holder.user.token, holder.account.accountNumber, '2999-01')).status).toBe(404);
    expect((await statementOf(holder.user.token, holder.account.accountNumber, '2026-13')).status).toBe(400);
  });

  it("answers another person's account with the same 404 as the account routes, and 401 without a session", async () => {
    const mallory = await createHolder();
    const accountAnswer = await api('GET', `/v1/account/${owner.account.accountNumber}`, { token: mallory.user.token });
    expect(accountAnswer.status).toBe(404);
    for (const url of [
      `/v1/statement/account/${owner.account.accountNumber}`,
      `/v1/statement/account/${owner.account.accountNumber}/${thisMonth()}`,
      `/v1/statement/account/${owner.account.accountNumber}/${thisMonth()}/pdf`,
    ]) {
      const theirs = await api('GET', url, { token: mallory.user.token });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(accountAnswer.body);
      expect((await api('GET', url)).status).toBe(401);
    }
  });

  it('verifies against the published seals with no database; refuses a changed amount, a removed or reordered movement and a replaced seal', { timeout: 60_000 }, async () => {
    await sealEverything();
    const statement = (await statementOf(owner.user.token, owner.account.accountNumber)).body.data;
    expect(statement.movements.every((movement) => movement.proof !== null)).toBe(true);
    const seals = await published();
    expect(await verifyStatement(statement, seals)).toEqual({ ok: true, movements: expectedNets.length });

    const refused = async (changed: AccountStatement, published_ = seals) => {
      const verdict = await verifyStatement(changed, published_);
      expect(verdict.ok).toBe(false);
      return verdict.ok ? [] : verdict.problems;
    };
    // A changed amount: its balance after and the closing balance changed along, so it adds up, but it is not what was signed or sealed.
    const amount = structuredClone(statement);
    amount.movements[1]!.netCents = '3499';
    for (const movement of amount.movements.slice(1)) movement.balanceAfterCents = String(Number(movement.balanceAfterCents) + 1_000);
    amount.closingBalanceCents = String(Number(amount.closingBalanceCents) + 1_000);
    expect(await refused(amount)).toEqual(expect.arrayContaining([expect.stringContaining('signature'), expect.stringContaining('differs from the sealed transaction')]));

    const removed = structuredClone(statement);
    removed.movements.splice(4, 1);
    expect(await refused(removed)).toEqual(expect.arrayContaining([expect.stringContaining('signature'), expect.stringContaining('running balance')]));

    const reordered = structuredClone(statement);
    [reordered.movements[1], reordered.movements[2]] = [reordered.movements[2]!, reordered.movements[1]!];
    expect(await refused(reordered)).toEqual(expect.arrayContaining([expect.stringContaining('signature')]));

    // A seal replaced in the published list: the chain and the movements' proofs no longer meet it.
    const sealNo = statement.movements[0]!.proof!.seal.sealNo;
    const forged = structuredClone(seals);
    const index = forged.seals.findIndex((seal) => seal.sealNo === sealNo);
    forged.seals[index] = { ...forged.seals[index]!, merkleRoot: 'f'.repeat(64) };
    expect(await refused(statement, forged)).toEqual(expect.arrayContaining([expect.stringContaining(`seal ${sealNo}`)]));
    // And a statement whose proof names a seal of its own making.
    const ownSeal = structuredClone(statement);
    ownSeal.movements[0]!.proof!.seal = { ...ownSeal.movements[0]!.proof!.seal, merkleRoot: 'f'.repeat(64) };
    expect(await refused(ownSeal)).toEqual([expect.stringContaining('differs from the published one')]);

    // The CLI, on downloaded files, with no database to reach.
    const dir = mkdtempSync(path.join(tmpdir(), 'kestrel-statement-'));
    writeFileSync(path.join(dir, 'statement.json'), JSON.stringify({ status: 'success', data: statement }));
    writeFileSync(path.join(dir, 'changed.json'), JSON.stringify(amount));
    writeFileSync(path.join(dir, 'seals.json'), JSON.stringify({ data: { algorithm: 'Ed25519', ...seals } }));
    const cli = path.resolve(import.meta.dirname, '../ledger/prove-cli.ts');
    const run = (file: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--statement', path.join(dir, file), path.join(dir, 'seals.json')], { env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } }).then(
        ({ stdout }) => ({ code: 0, out: stdout }),
        (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
      );
    const good = await run('statement.json');
    expect(good.out).toContain(`OK: the statement of account ${owner.account.accountNumber} for ${thisMonth()} (so far) is Kestrel's, unchanged: 6 movements`);
    expect(good.code).toBe(0);
    const bad = await run('changed.json');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("FAILED: the statement's signature is not Kestrel's");
  });

  it('prints the statement as a PDF with the fonts for a Bengali or Cyrillic name embedded', { timeout: 60_000 }, async () => {
    const user = await createUser();
    const account = await createAccount(user, { accountHolderName: 'রহিম উদ্দিন Алиса' });
    await fundAccount(account.accountId, 12_345);
    const { baseUrl } = await testServer();
    const answer = await fetch(`${baseUrl}/v1/statement/account/${account.accountNumber}/${thisMonth()}/pdf`, { headers: { authorization: user.token } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="statement-${account.accountNumber}-${thisMonth()}.pdf"`);
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = bytes.toString('latin1');
    // Embedded subsets of the Noto faces: Latin for the figures, Bengali and Cyrillic for the name.
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansBengali/);
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-/);
    expect((text.match(/\/BaseFont \/[A-Z]{6}\+NotoSans-/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });
});

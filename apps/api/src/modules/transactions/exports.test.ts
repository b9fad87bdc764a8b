import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createHolder } from '../../../test/factories.ts';
import { csvOf } from '../../../test/csv-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';

/**
 * Withdrawal rows written directly (the export reads rows; the withdrawal flow has its own
 * tests). Each needs a hold transaction of its own: those are planted too, balanced between two
 * system accounts of the test's, so no wallet balance and no invariant is touched.
 */
async function plantWithdrawals(accountId: string, userId: string, count: number, fields: { bankName?: string; accountHolderName?: string; createdAt?: string } = {}) {
  const { db } = await testServer();
  await db.transaction().execute(async (trx) => {
    // Balanced by construction; skipping the per-row deferred sum check makes 100,000 of them quick.
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await sql`
      INSERT INTO ledger_accounts (system_code, currency) VALUES ('test_export_from', 'USD'), ('test_export_to', 'USD')
      ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING`.execute(trx);
    // In batches: one statement stays well inside the client's statement timeout on a busy machine.
    for (let first = 1; first <= count; first += 5_000) {
      const last = Math.min(count, first + 4_999);
      await sql`
      WITH holds AS (
        INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents)
        SELECT 'TEXP' || md5(random()::text || n::text), 'test_export', 'Export test', 'USD', 100 + n FROM generate_series(${first}::int, ${last}::int) AS n
        RETURNING id, amount_cents
      ), postings AS (
        INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
        SELECT holds.id, la.id, CASE WHEN la.system_code = 'test_export_from' THEN -holds.amount_cents ELSE holds.amount_cents END
        FROM holds CROSS JOIN ledger_accounts la WHERE la.system_code IN ('test_export_from', 'test_export_to') AND la.currency = 'USD'
      )
      INSERT INTO bank_withdrawals (account_id, requested_by, currency, amount_cents, status, country, bank_name, bank_account_number,
                                    routing_number, account_holder_name, hold_transaction_id, created_at, updated_at)
      SELECT ${accountId}, ${userId}, 'USD', holds.amount_cents, 'Pending', 'United States', ${fields.bankName ?? 'First Bank'},
             '1234567890' || holds.amount_cents, '021000021', ${fields.accountHolderName ?? 'Alice Cooper'}, holds.id,
             COALESCE(${fields.createdAt ?? null}::timestamptz, now()) - make_interval(secs => (holds.amount_cents - 100)::int), now()
      FROM holds`.execute(trx);
    }
  });
}

describe('CSV exports (issue 26)', () => {
  it('exports an account\'s transactions to the cent, newest first, with the list\'s columns and machine columns', { timeout: 120_000 }, async () => {
    const alice = await createHolder(50_000);
    const bob = await createHolder();
    for (const cents of [1_250, 99, 10_000]) {
      const sent = await api('POST', '/v1/account/transfer_balance', {
        token: alice.user.token,
        body: { debitAccountKey: alice.account.userName, creditAccountKey: bob.account.userName, currency: 'USD', balance: cents / 100, tpin: alice.account.tpin },
      });
      expect(sent.status).toBe(200);
    }
    const answer = await csvOf(`/v1/export/transactions/${alice.account.accountNumber}`, alice.user.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="transactions-${alice.account.accountNumber}.csv"`);
    expect(answer.body.split('\r\n')[0]).toBe('Tnx At (UTC),TnxId,Purpose,Type,Amount,Fee,Counterparty accounts,created_at_iso,currency,amount_cents,fee_cents,net_cents');
    const rows = answer.rows;
    // Three transfers out, then the funding in.
    expect(rows.map((row) => [row.Type, row.amount_cents, row.net_cents])).toEqual([
      ['Debit', '10000', '-10000'],
      ['Debit', '99', '-99'],
      ['Debit', '1250', '-1250'],
      ['Credit', '50000', '50000'],
    ]);
    expect(rows[0]).toMatchObject({ Purpose: 'Fund Transfer', Amount: 'US$ 100.00', Fee: 'US$ 0.00', 'Counterparty accounts': bob.account.accountNumber, currency: 'USD', fee_cents: '0' });
    expect(rows[0]!['Tnx At (UTC)']).toMatch(/^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4} \d{1,2}:\d{2} (AM|PM)$/);
    expect(new Date(rows[0]!.created_at_iso!).toISOString()).toBe(rows[0]!.created_at_iso);
    // The export and the ledger agree: what the rows net to is the balance.
    const balance = rows.reduce((sum, row) => sum + Number(row.net_cents), 0);
    const account = await api('GET', `/v1/account/${alice.account.accountNumber}`, { token: alice.user.token });
    expect(Math.round(account.body.data.balance[0].amount * 100)).toBe(balance);

    const bobs = (await csvOf(`/v1/export/transactions/${bob.account.accountNumber}`, bob.user.token)).rows;
    expect(bobs.map((row) => [row.Type, row.net_cents])).toEqual([
      ['Credit', '10000'],
      ['Credit', '99'],
      ['Credit', '1250'],
    ]);
  });

  it('quotes what needs quoting and keeps non-Latin names intact; filters by UTC day, both ends inclusive', async () => {
    const alice = await createHolder();
    await plantWithdrawals(alice.account.accountId, alice.user.userId, 1, { bankName: 'Bank "Ōsaka", Ltd', accountHolderName: 'Алиса Купер\nsecond line', createdAt: '2026-03-10T12:00:00Z' });
    await plantWithdrawals(alice.account.accountId, alice.user.userId, 1, { createdAt: '2026-03-12T12:00:00Z' });
    const get = (query: string) => csvOf(`/v1/export/withdrawals/${alice.account.accountNumber}${query}`, alice.user.token);

    const all = (await get('')).rows;
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ Bank: 'Bank "Ōsaka", Ltd', 'Account holder': 'Алиса Купер\nsecond line', 'Account No.': expect.stringMatching(/^\*+\d{4}$/), amount_cents: '101', Status: 'Pending' });
    expect((await get('?from=2026-03-10&to=2026-03-10')).rows.map((row) => row.Bank)).toEqual(['Bank "Ōsaka", Ltd']);
    expect((await get('?from=2026-03-11')).rows.map((row) => row.Bank)).toEqual(['First Bank']);
    expect((await get('?to=2026-03-09')).rows).toEqual([]);

    const backwards = await get('?from=2026-03-12&to=2026-03-10');
    expect(backwards.status).toBe(400);
    expect(JSON.parse(backwards.body).error).toBeTruthy();
    expect((await get('?from=2026-02-30')).status).toBe(400);
  });

  it('answers 404 for another person\'s account and 401 without a session', async () => {
    const alice = await createHolder();
    const mallory = await createHolder();
    for (const list of ['transactions', 'withdrawals']) {
      expect((await api('GET', `/v1/export/${list}/${alice.account.accountNumber}`, { token: mallory.user.token })).status).toBe(404);
      expect((await api('GET', `/v1/export/${list}/${alice.account.accountNumber}`)).status).toBe(401);
    }
  });

  // On PostgreSQL the database's memory is another process's, so the server's RSS is the
  // export's own: 100,000 rows. Embedded PGlite lives in this process and grows its own heap
  // for the table, so there the same check runs on 10,000 rows.
  it('streams 100,000 rows (10,000 on embedded PGlite) in bounded memory', { timeout: 300_000 }, async () => {
    const alice = await createHolder();
    const rowCount = (await testServer()).databaseKind === 'postgres' ? 100_000 : 10_000;
    const planting = Date.now();
    await plantWithdrawals(alice.account.accountId, alice.user.userId, rowCount);
    console.log(`planted ${rowCount} withdrawals in ${Date.now() - planting} ms`);
    const exporting = Date.now();
    const server = await testServer();
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const answer = await fetch(`${server.baseUrl}/v1/export/withdrawals/${alice.account.accountNumber}`, { headers: { authorization: alice.user.token } });
    let lines = 0;
    let bytes = 0;
    const decoder = new TextDecoder();
    // Read as it arrives, never holding the whole file: count the records' line ends (their
    // '\n': a chunk may end between the '\r' and the '\n').
    for await (const chunk of answer.body!) {
      bytes += chunk.byteLength;
      lines += (decoder.decode(chunk, { stream: true }).match(/\n/g) ?? []).length;
    }
    clearInterval(sampler);
    console.log(`exported ${bytes} bytes in ${Date.now() - exporting} ms; RSS grew ${((peak - before) / 2 ** 20).toFixed(1)} MiB`);
    expect(answer.status).toBe(200);
    expect(lines).toBe(rowCount + 1); // the header and every row
    const grownMiB = (peak - before) / 2 ** 20;
    // 100,000 rows are ~17 MiB of CSV (34 MiB as a JS string) and well over 100 MiB as row
    // objects, so an export that gathered them would pass this bound; a stream holds one page
    // (V8 still grows its heap before it collects, hence the room).
    expect(bytes).toBeGreaterThan(rowCount * 150);
    expect(grownMiB).toBeLessThan(96);
  });
});

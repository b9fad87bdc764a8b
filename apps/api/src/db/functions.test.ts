import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertBareAccount } from '../../test/ledger-fixtures.ts';
import { createScratchDatabase } from '../../test/scratch-database.ts';
import { openDatabase, type DatabaseHandle, type Db } from './database.ts';
import { migrate } from './migrate.ts';

const functionsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'functions');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A database of this file's own (the shared test database must keep its functions and a ledger
 * that `verifyLedger` can prove): a fresh PostgreSQL database beside the run's, or a fresh
 * in-memory PGlite.
 */
let database: DatabaseHandle;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const runUrl = inject('testDatabaseUrl');
  if (!runUrl) {
    database = await openDatabase({});
    return;
  }
  const scratch = await createScratchDatabase(runUrl, 'kestrel_functions');
  database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  dropDatabase = scratch.drop;
});

afterAll(async () => {
  await database.close();
  await dropDatabase?.();
});

async function recordedChecksums(db: Db): Promise<Record<string, string>> {
  const rows = await sql<{ name: string; checksum: string }>`SELECT name, checksum FROM schema_functions ORDER BY name`.execute(db);
  return Object.fromEntries(rows.rows.map((row) => [row.name, row.checksum]));
}

function repositoryChecksums(): Record<string, string> {
  const files = readdirSync(functionsDir).filter((file) => file.endsWith('.sql'));
  return Object.fromEntries(files.map((file) => [file.slice(0, -4), sha256(readFileSync(path.join(functionsDir, file), 'utf8'))]));
}

const scratchDir = () => mkdtempSync(path.join(tmpdir(), 'kestrel-functions-'));

describe('database functions applied by the migration runner', () => {
  it('applies every function file of a fresh database after the numbered migrations, recording its checksum', async () => {
    const applied = await migrate(database.db);
    const functionFiles = readdirSync(functionsDir).filter((file) => file.endsWith('.sql')).sort();
    expect(functionFiles).toEqual(expect.arrayContaining(['ledger_balance.sql', 'ledger_credit.sql', 'ledger_debit.sql', 'ledger_transfer.sql']));
    expect(applied.slice(-functionFiles.length)).toEqual(functionFiles.map((file) => `functions/${file}`));
    expect(applied.filter((name) => !name.startsWith('functions/'))).toEqual(applied.slice(0, applied.length - functionFiles.length));
    expect(await recordedChecksums(database.db)).toEqual(repositoryChecksums());
    expect(await migrate(database.db)).toEqual([]);
  });

  it('skips an unchanged file and applies it again when its text changes', async () => {
    const dir = scratchDir();
    const name = `functions_test_answer_${randomBytes(4).toString('hex')}`;
    const file = path.join(dir, `${name}.sql`);
    const define = (answer: number) =>
      writeFileSync(file, `CREATE OR REPLACE FUNCTION ${name}() RETURNS integer LANGUAGE sql AS $$ SELECT ${answer} $$;\n`);
    const answer = async () => (await sql<{ answer: number }>`SELECT ${sql.raw(name)}() AS answer`.execute(database.db)).rows[0]?.answer;

    define(1);
    expect(await migrate(database.db, { functionsDir: dir })).toEqual([`functions/${name}.sql`]);
    expect(await answer()).toBe(1);
    const first = await recordedChecksums(database.db);
    expect(first[name]).toBe(sha256(readFileSync(file, 'utf8')));

    expect(await migrate(database.db, { functionsDir: dir })).toEqual([]);

    define(2);
    expect(await migrate(database.db, { functionsDir: dir })).toEqual([`functions/${name}.sql`]);
    expect(await answer()).toBe(2);
    const second = await recordedChecksums(database.db);
    expect(second[name]).toBe(sha256(readFileSync(file, 'utf8')));
    expect(second[name]).not.toBe(first[name]);
  });

  it('fails with the broken file’s name, keeps the files before it, and records nothing for the broken one', async () => {
    const dir = scratchDir();
    const tag = randomBytes(4).toString('hex');
    writeFileSync(path.join(dir, `a_good_${tag}.sql`), `CREATE OR REPLACE FUNCTION a_good_${tag}() RETURNS integer LANGUAGE sql AS $$ SELECT 7 $$;\n`);
    writeFileSync(path.join(dir, `b_broken_${tag}.sql`), `CREATE OR REPLACE FUNCTION b_broken_${tag}() RETURNS integer LANGUAGE sql AS $$ SELEC 7 $$;\n`);

    await expect(migrate(database.db, { functionsDir: dir })).rejects.toThrow(`Database function b_broken_${tag}.sql refused: syntax error`);
    const recorded = await recordedChecksums(database.db);
    expect(recorded[`a_good_${tag}`]).toBeDefined();
    expect(recorded[`b_broken_${tag}`]).toBeUndefined();
    // Still broken on the next start: it is tried again, and refused again.
    await expect(migrate(database.db, { functionsDir: dir })).rejects.toThrow(`Database function b_broken_${tag}.sql refused`);
  });

  it('refuses a function file not named <function_name>.sql in lower case', async () => {
    const dir = scratchDir();
    writeFileSync(path.join(dir, 'Ledger-Thing.sql'), 'SELECT 1;\n');
    await expect(migrate(database.db, { functionsDir: dir })).rejects.toThrow('Database function Ledger-Thing.sql refused: a function file is named <function_name>.sql in lower case');
  });

  it('brings a database whose ledger_transfer came from the numbered migrations onto the folder’s functions', async () => {
    const db = database.db;
    await migrate(db);
    // The state a database made before the functions folder is in: no schema_functions, no
    // credit/debit/balance functions, ledger_transfer with another body, and (on a database
    // that stopped between the two releases) the first version's signature beside it.
    await sql`DROP TABLE schema_functions`.execute(db);
    await sql`DROP FUNCTION ledger_credit(bigint, bigint), ledger_debit(bigint, bigint), ledger_balance(bigint)`.execute(db);
    await sql
      .raw(
        `CREATE FUNCTION ledger_transfer(text, text, text, uuid, text, text, bigint, text, text, text, text, text, integer, integer,
           OUT kind text) LANGUAGE plpgsql AS $$ BEGIN kind := 'first_version'; END $$`,
      )
      .execute(db);
    const procs = async () =>
      (
        await sql<{ args: number; source: string }>`SELECT pronargs AS args, prosrc AS source FROM pg_proc WHERE proname = 'ledger_transfer' ORDER BY pronargs`.execute(db)
      ).rows;
    expect((await procs()).map((row) => row.args)).toEqual([14, 17]);

    const applied = await migrate(db);
    expect(applied).toEqual(readdirSync(functionsDir).filter((file) => file.endsWith('.sql')).sort().map((file) => `functions/${file}`));
    const after = await procs();
    expect(after.map((row) => row.args)).toEqual([17]);
    expect(after[0]?.source).toContain('ledger_debit(v_sender_la, p_amount)');
    expect(await recordedChecksums(db)).toEqual(repositoryChecksums());
  });
});

describe('ledger_credit and ledger_debit', () => {
  async function walletLedgerAccount(db: Db): Promise<number> {
    const accountId = await insertBareAccount(db);
    const row = await db.selectFrom('ledgerAccounts').select('id').where('accountId', '=', accountId).executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const balance = async (db: Db, id: number) =>
    (await sql<{ balance: number }>`SELECT ledger_balance(${id}::bigint) AS balance`.execute(db)).rows[0]?.balance;
  const credit = (db: Db, id: number, cents: number) => sql`SELECT ledger_credit(${id}::bigint, ${cents}::bigint)`.execute(db);
  const debit = async (db: Db, id: number, cents: number) =>
    (await sql<{ done: boolean }>`SELECT ledger_debit(${id}::bigint, ${cents}::bigint) AS done`.execute(db)).rows[0]?.done;

  it('credits a wallet, and debits it only while the balance stays at or above zero', async () => {
    const db = database.db;
    await migrate(db);
    const wallet = await walletLedgerAccount(db);
    await credit(db, wallet, 1_000);
    expect(await balance(db, wallet)).toBe(1_000);

    expect(await debit(db, wallet, 1_001)).toBe(false);
    expect(await balance(db, wallet)).toBe(1_000);
    expect(await debit(db, wallet, 400)).toBe(true);
    expect(await balance(db, wallet)).toBe(600);
    expect(await debit(db, wallet, 600)).toBe(true);
    expect(await balance(db, wallet)).toBe(0);
    expect(await debit(db, wallet, 1)).toBe(false);
    expect(await balance(db, wallet)).toBe(0);
  });

  it("keeps no balance on a system account's row (never a hot row): a change writes nothing, its balance is the sum of its postings", async () => {
    const db = database.db;
    await migrate(db);
    const row = await db
      .insertInto('ledgerAccounts')
      .values({ systemCode: `functions_test_${randomBytes(4).toString('hex')}`, currency: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const system = Number(row.id);
    const wallet = await walletLedgerAccount(db);
    await db.transaction().execute(async (trx) => {
      const t = await trx
        .insertInto('ledgerTransactions')
        .values({ transactionId: `TNXFN${randomBytes(6).toString('hex')}`, kind: 'x', transactionFor: 'x', currency: 'USD', amountCents: 2_500, metadata: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('ledgerPostings')
        .values([
          { ledgerTransactionId: t.id, ledgerAccountId: system, amountCents: -2_500 },
          { ledgerTransactionId: t.id, ledgerAccountId: wallet, amountCents: 2_500 },
        ])
        .execute();
      await credit(trx, system, -2_500);
      await credit(trx, wallet, 2_500);
    });
    expect(await balance(db, system)).toBe(-2_500);
    expect(await balance(db, wallet)).toBe(2_500);
    expect(await debit(db, system, 1_000)).toBe(true);
    const stored = await db.selectFrom('ledgerAccounts').select('balanceCents').where('id', '=', system).executeTakeFirstOrThrow();
    expect(stored.balanceCents).toBe(0);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messages } from '@kestrel/shared';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { accountBodyFor, createAccount, createUser } from '../../../test/factories.ts';
import { operatorToken } from '../../../test/gateway-fixtures.ts';

/*
 * Issue 20: an account's country is stored one way, its ISO 3166-1 alpha-2 code from the
 * countries list (as the demo data stores it), and shown by its name.
 */

async function storedCountry(accountId: string): Promise<string> {
  const { db } = await testServer();
  return (await db.selectFrom('accounts').select('country').where('id', '=', accountId).executeTakeFirstOrThrow()).country;
}

describe('the account country', () => {
  it('is stored as its code whether the code (any case) or the name was sent, and answered as the code', async () => {
    for (const [sent, code] of [
      ['BD', 'BD'],
      ['bd', 'BD'],
      ['Bangladesh', 'BD'],
      ['United States of America', 'US'],
      [' germany ', 'DE'],
    ] as const) {
      const user = await createUser();
      const account = await createAccount(user, { address: { street: '1 Road', city: 'Dhaka', state: 'DH', zipCode: '1212', country: sent } });
      expect(await storedCountry(account.accountId), sent).toBe(code);
      const seen = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
      expect(seen.body.data.address.country, sent).toBe(code);
    }
  });

  it('refuses a country that is not on the list, under the country field, and opens no account', async () => {
    const user = await createUser();
    for (const country of ['Narnia', 'XX', 'Bangladesh!']) {
      const body = accountBodyFor(user, { address: { street: '1 Road', city: 'Dhaka', state: 'DH', zipCode: '1212', country } });
      const response = await api('POST', '/v1/account/create', { token: user.token, body });
      expect(response.status, country).toBe(400);
      expect(response.body.error).toBe(messages.account.countryUnknown);
      expect(response.body.fields).toEqual({ 'address.country': messages.account.countryUnknown });
    }
    const { db } = await testServer();
    expect(await db.selectFrom('accountUsers').select('accountId').where('userId', '=', user.userId).execute()).toEqual([]);
  });

  it("is shown by its name in the operator console's account details", async () => {
    const user = await createUser();
    const account = await createAccount(user, { address: { street: '1 Road', city: 'Dhaka', state: 'DH', zipCode: '1212', country: 'BD' } });
    const detail = await api('GET', `/v1/operator/accounts/${account.accountId}`, { token: await operatorToken() });
    expect(detail.status).toBe(200);
    expect(detail.body.data.account.address).toBe('1 Road, Dhaka, DH, 1212, Bangladesh');
  });

  it('migration 0019 turns stored names into codes, upper-cases codes and leaves an unknown value as it was', async () => {
    const { db } = await testServer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createAccount(await createUser())).accountId);
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations/0019_invoice_due_paid_and_country_codes.sql');
    const source = readFileSync(file, 'utf8');
    // The country part of the migration: its two UPDATEs and the constraint.
    const statements = source
      .slice(source.indexOf('UPDATE accounts'))
      .split(/;\s*\n/)
      .map((statement) => statement.trim())
      .filter(Boolean);
    expect(statements).toHaveLength(3);
    const before = ['Bangladesh', 'united states of america', 'us', 'Narnia', 'Germany'];
    const rollback = new Error('rollback');
    const after = await db
      .transaction()
      .execute(async (trx) => {
        // The accounts as the complete-account form stored them before: by name.
        await sql`ALTER TABLE accounts DROP CONSTRAINT accounts_country_code`.execute(trx);
        for (const [i, id] of ids.entries()) await trx.updateTable('accounts').set({ country: before[i]! }).where('id', '=', id).execute();
        for (const statement of statements) await sql.raw(statement).execute(trx);
        const rows = await trx.selectFrom('accounts').select(['id', 'country']).where('id', 'in', ids).execute();
        const byId = new Map(rows.map((row) => [row.id, row.country]));
        // A new row must hold a code.
        const refused = await trx
          .updateTable('accounts')
          .set({ country: 'Bangladesh' })
          .where('id', '=', ids[0]!)
          .execute()
          .then(() => 'accepted', (error: Error) => error.message);
        throw Object.assign(rollback, { result: { countries: ids.map((id) => byId.get(id)), refused } });
      })
      .catch((error: Error & { result?: unknown }) => {
        if (error !== rollback) throw error;
        return error.result as { countries: string[]; refused: string };
      });
    expect(after.countries).toEqual(['BD', 'US', 'US', 'Narnia', 'DE']);
    expect(after.refused).toContain('accounts_country_code');
    // Rolled back: the constraint is still there and the accounts keep their codes.
    expect(await storedCountry(ids[0]!)).toBe('US');
  });
});

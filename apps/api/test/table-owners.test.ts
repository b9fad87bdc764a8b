import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, scanModules, schemaTables, tableUses, violations } from './table-owners.ts';

/*
 * ARCHITECTURE.md, "A module's tables behind the module": every table has one owning module
 * (TABLE_OWNERS in table-owners.ts). Scanning every non-test .ts file under
 * apps/api/src/modules, a module writes (insertInto / updateTable / deleteFrom / mergeInto) only
 * its own tables, and outside its own *.repository.ts files selects from its own tables only.
 * A repository may select from or join another module's table (a read model); joins elsewhere
 * and raw `sql` template text are not judged.
 */

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const modulesDir = path.join(srcDir, 'modules');

/**
 * Violations that may stand, each as the scanner words it (file, call, table) with the reason
 * it cannot move. Empty: every module keeps to its own tables. The test fails on a violation
 * not listed here and on an entry that no longer occurs.
 */
const ALLOWED: Record<string, string> = {};

describe('table owners', () => {
  it('names an owner, a real module, for every table of the Database', () => {
    const schemaDir = path.join(srcDir, 'db/schema');
    const schemaFiles = [path.join(srcDir, 'db/schema.ts'), ...readdirSync(schemaDir).map((file) => path.join(schemaDir, file))];
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(schemaTables(schemaFiles));
    const modules = new Set(readdirSync(modulesDir));
    expect(Object.values(TABLE_OWNERS).filter((module) => !modules.has(module))).toEqual([]);
  });

  it('finds no module reaching into another module’s tables beyond the allow-list', () => {
    const found = [...new Set(violations(scanModules(modulesDir)))].sort();
    expect(found).toEqual(Object.keys(ALLOWED).sort());
  });
});

describe('the table scanner', () => {
  const planted = (file: string, query: string) => violations(tableUses(file, `export const planted = (db: Db) => db${query}.execute();\n`));

  it.each([
    ['operator/planted.service.ts', ".updateTable('accounts').set({ moneyMovementLocked: true })", "updateTable('accounts') writes accounts's table"],
    ['operator/planted.repository.ts', ".insertInto('users as u').values({})", "insertInto('users') writes users's table"],
    ['notifications/planted.ts', ".deleteFrom('notificationEvents')", "deleteFrom('notificationEvents') writes mail's table"],
    ['dashboard/planted.ts', ".mergeInto('payments').using('stores', 'stores.id', 'payments.storeId')", "mergeInto('payments') writes payments's table"],
    ['operator/planted.service.ts', ".selectFrom('accounts').selectAll()", "selectFrom('accounts') reads accounts's table outside a repository"],
    ['transfers/planted.ts', ".selectFrom(['users', 'transfers']).selectAll()", "selectFrom('users') reads users's table outside a repository"],
    ['statements/planted.ts', ".selectFrom('statementMails').where(({ exists, selectFrom }) => exists(selectFrom('accounts').select('id'))).selectAll()", "selectFrom('accounts') reads accounts's table outside a repository"],
  ])('flags the planted query in %s', (file, query, message) => {
    expect(planted(file, query)).toEqual([`${file}: ${message}`]);
  });

  it.each([
    ['accounts/planted.service.ts', ".updateTable('accounts as a').set({ moneyMovementLocked: true })"],
    ['stores/stores.repository.ts', ".selectFrom('payments').innerJoin('accounts', 'accounts.id', 'payments.accountId').selectAll()"],
    ['operator/planted.service.ts', ".selectFrom('operatorApprovals').innerJoin('users', 'users.id', 'operatorApprovals.requestedBy').selectAll()"],
    ['payments/planted.ts', ".with('recent', (qb) => qb.selectFrom('payments').selectAll()).selectFrom('recent').selectAll()"],
  ])('leaves the allowed query in %s alone', (file, query) => {
    expect(planted(file, query)).toEqual([]);
  });
});

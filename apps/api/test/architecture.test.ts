import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The import rules of ARCHITECTURE.md are ESLint rules (eslint.config.js). These plant
 * forbidden imports in text that ESLint lints as if it were a file at the given path, and
 * expect the rule to fire; the allowed direction must stay quiet. Nothing is written to disk.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(repoRoot, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('import rules', () => {
  it.each([
    // API: the cycles this repository had (accounts ↔ activities, auth ↔ users), and layers.
    ['apps/api/src/modules/activities/planted.ts', "import { getAccount } from '../accounts/accounts.service.ts';"],
    ['apps/api/src/modules/users/planted.ts', "import { login } from '../auth/auth.service.ts';"],
    ['apps/api/src/modules/transactions/planted.ts', "import { operatorRoutes } from '../operator/operator.routes.ts';"],
    ['apps/api/src/http/planted.ts', "import { findLiveSession } from '../modules/sessions/sessions.repository.ts';"],
    ['apps/api/src/db/planted.ts', "import { postTransaction } from '../modules/ledger/ledger.service.ts';"],
    // Settings come down from the entry points; db/ never reads them (migrate-cli.ts lives beside server.ts).
    ['apps/api/src/db/planted.ts', "import { loadConfig } from '../config.ts';"],
    // Web: accounts ↔ portal, lib/components below features, features below the app shell.
    ['apps/web/src/features/accounts/planted.ts', "import { GateFrame } from '../portal/components/GateFrame.tsx';"],
    ['apps/web/src/features/accounts/components/Planted.tsx', "import { GateFrame } from '../../portal/components/GateFrame.tsx';"],
    ['apps/web/src/features/auth/pages/Planted.tsx', "import { useAccount } from '../../accounts/api.ts';"],
    ['apps/web/src/lib/planted.ts', "import { useAccount } from '../features/accounts/api.ts';"],
    ['apps/web/src/components/Planted.tsx', "import { transferKeys } from '../features/transfers/api.ts';"],
    ['apps/web/src/features/transfers/planted.ts', "import { router } from '../../app/router.ts';"],
    // A module reaches another module's tables through its service, never its repository.
    ['apps/api/src/modules/accounts/planted.ts', "import { recordActivity } from '../activities/activities.repository.ts';"],
    ['apps/api/src/modules/dashboard/planted.ts', "import { accountPaymentCountersQuery } from '../stores/stores.repository.ts';"],
    ['apps/api/src/modules/operator/reports/planted.ts', "import { findUserByEmail } from '../../users/users.repository.ts';"],
    // The shared package never reaches into an app.
    ['packages/shared/src/planted.ts', "import { buildApp } from '../../../apps/api/src/app.ts';"],
  ])('refuses the planted import in %s', async (filePath, source) => {
    const errors = await importErrors(filePath, `${source}\nexport const planted = 1;\n`);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain('ARCHITECTURE.md');
  });

  it.each([
    ['apps/api/src/modules/accounts/planted.ts', "import { recordActivity } from '../activities/activities.service.ts';"],
    ['apps/api/src/modules/auth/planted.ts', "import { findUserByEmail } from '../users/users.service.ts';"],
    ['apps/api/src/modules/stores/planted.ts', "import { findOwnedStore } from './stores.repository.ts';"],
    ['apps/api/src/modules/transfers/planted.ts', "import { findOwnedAccount } from '../../http/ownership.ts';"],
    ['apps/web/src/features/portal/components/Planted.tsx', "import { AccountSwitcher } from '../../accounts/components/AccountSwitcher.tsx';"],
    ['apps/web/src/features/transfers/planted.ts', "import { accountKeys } from '../accounts/api.ts';"],
  ])('allows the downward import in %s', async (filePath, source) => {
    expect(await importErrors(filePath, `${source}\nexport const planted = 1;\n`)).toEqual([]);
  });
});

describe('activity and audit rows', () => {
  async function syntaxErrors(filePath: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: path.join(repoRoot, filePath) });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
  }
  const planted = (table: string) => `import type { Db } from '../../db/database.ts';\nexport const planted = (db: Db) => db.insertInto('${table}').values({} as never).execute();\n`;

  it.each([
    ['apps/api/src/modules/accounts/planted.ts', 'activities'],
    ['apps/api/src/modules/withdrawals/planted.ts', 'auditLog'],
    ['apps/api/src/http/planted.ts', 'auditLog'],
  ])('refuses a raw insert in %s into %s', async (filePath, table) => {
    expect((await syntaxErrors(filePath, planted(table))).join('\n')).toContain('recordActivity');
  });

  it('leaves the two writers and other tables alone', async () => {
    expect(await syntaxErrors('apps/api/src/modules/activities/activities.repository.ts', planted('activities'))).toEqual([]);
    expect(await syntaxErrors('apps/api/src/modules/audit/audit.ts', planted('auditLog'))).toEqual([]);
    expect(await syntaxErrors('apps/api/src/modules/accounts/planted.ts', planted('transfers'))).toEqual([]);
  });
});

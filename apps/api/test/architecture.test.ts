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
    // Web: accounts ↔ portal, lib/components below features, features below the app shell.
    ['apps/web/src/features/accounts/planted.ts', "import { GateFrame } from '../portal/components/GateFrame.tsx';"],
    ['apps/web/src/features/accounts/components/Planted.tsx', "import { GateFrame } from '../../portal/components/GateFrame.tsx';"],
    ['apps/web/src/features/auth/pages/Planted.tsx', "import { useAccount } from '../../accounts/api.ts';"],
    ['apps/web/src/lib/planted.ts', "import { useAccount } from '../features/accounts/api.ts';"],
    ['apps/web/src/components/Planted.tsx', "import { transferKeys } from '../features/transfers/api.ts';"],
    ['apps/web/src/features/transfers/planted.ts', "import { router } from '../../app/router.ts';"],
    // The shared package never reaches into an app.
    ['packages/shared/src/planted.ts', "import { buildApp } from '../../../apps/api/src/app.ts';"],
  ])('refuses the planted import in %s', async (filePath, source) => {
    const errors = await importErrors(filePath, `${source}\nexport const planted = 1;\n`);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain('ARCHITECTURE.md');
  });

  it.each([
    ['apps/api/src/modules/accounts/planted.ts', "import { recordActivity } from '../activities/activities.repository.ts';"],
    ['apps/api/src/modules/auth/planted.ts', "import { findUserByEmail } from '../users/users.repository.ts';"],
    ['apps/api/src/modules/transfers/planted.ts', "import { findOwnedAccount } from '../../http/ownership.ts';"],
    ['apps/web/src/features/portal/components/Planted.tsx', "import { AccountSwitcher } from '../../accounts/components/AccountSwitcher.tsx';"],
    ['apps/web/src/features/transfers/planted.ts', "import { accountKeys } from '../accounts/api.ts';"],
  ])('allows the downward import in %s', async (filePath, source) => {
    expect(await importErrors(filePath, `${source}\nexport const planted = 1;\n`)).toEqual([]);
  });
});

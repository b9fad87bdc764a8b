import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/*
 * Import rules (ARCHITECTURE.md, "Layers"). Feature folders are ordered from the bottom up:
 * a feature may import the features before it in its list, never one after it, so folder
 * cycles cannot come back. apps/api/test/architecture.test.ts proves the rules fire on planted imports.
 */

/** apps/api/src/modules, bottom up. */
export const API_MODULE_ORDER = [
  'ledger',
  'audit',
  'uploads',
  'mail',
  'sessions',
  'activities',
  'users',
  'auth',
  'accounts',
  'transfers',
  'transactions',
  'withdrawals',
  'invoices',
  'stores',
  'callbacks',
  'payments',
  'payment-requests',
  'refunds',
  'notifications',
  'reconciliation',
  'statements',
  'operator',
  'dashboard',
  'demo',
  'data',
];

/** apps/web/src/features, bottom up (portal is the shell that composes the others). */
export const WEB_FEATURE_ORDER = ['auth', 'accounts', 'transactions', 'transfers', 'payments', 'gateway', 'checkout', 'payment-requests', 'withdrawals', 'deposit', 'invoices', 'dashboard', 'portal', 'ops'];

const forbid = (folders, message) => ({
  group: folders.flatMap((folder) => [`../${folder}/*`, `../../${folder}/*`, `**/${folder}/*`]),
  message,
});

/**
 * An API module's tables are read and written through that module's service (or its other
 * non-repository files): another module importing its `*.repository.ts` is refused.
 */
const otherModulesRepositories = {
  group: ['../*/*.repository.ts', '../../*/*.repository.ts', '**/modules/*/*.repository.ts'],
  message: "A module reaches another module's tables through that module's service, never its *.repository.ts; see ARCHITECTURE.md",
};

/** One config block per feature: it may not import the features at or above it (other than itself). */
function layeredFeatures(root, order, what) {
  return order.map((name, index) => {
    const above = order.slice(index + 1);
    const isApi = root.endsWith('modules');
    return {
      files: [`${root}/${name}/**/*.{ts,tsx}`],
      ignores: isApi ? ['**/*.test.ts'] : ['**/*.test.ts', '**/*.test.tsx'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...(above.length > 0
                ? [forbid(above.map((folder) => (root.endsWith('modules') ? `modules/${folder}` : `features/${folder}`)).concat(above), `${what} '${name}' may only import ${what}s below it (${order.slice(0, index).join(', ') || 'none'}); see ARCHITECTURE.md`)]
                : []),
              ...(root.startsWith('apps/web') ? [forbid(['app'], 'Features do not import the app shell (apps/web/src/app); see ARCHITECTURE.md')] : []),
              // The layer rule for the pending files is kept below, without this one.
              ...(isApi ? [otherModulesRepositories] : []),
            ],
          },
        ],
      },
    };
  });
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-ssr/**', 'packages/sdk/src/generated/**', '.cache/**', 'data/**', 'e2e/test-results/**', 'e2e/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // ---- Layers ----
  {
    files: ['packages/shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/*', '**/apps/**', '@kestrel/shared'], message: 'The shared package imports nothing from the apps (and itself only relatively); see ARCHITECTURE.md' }] }],
    },
  },
  {
    files: ['apps/api/src/http/**/*.ts', 'apps/api/src/db/**/*.ts', 'apps/api/src/security/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/modules/*', '**/modules/**'], message: 'http/, db/ and security/ sit below the feature modules and never import them; hand what they need in through the app context; see ARCHITECTURE.md' },
            // Settings are read by the entry points (server.ts, migrate-cli.ts, the CLIs) and handed down.
            { group: ['**/config.ts'], message: 'http/, db/ and security/ do not read the settings (config.ts); the entry point passes what they need; see ARCHITECTURE.md' },
          ],
        },
      ],
    },
  },
  ...layeredFeatures('apps/api/src/modules', API_MODULE_ORDER, 'module'),
  {
    // Activity and audit rows are written by recordActivity / recordActivities (activities)
    // and recordAudit (audit) only, so every entry has one shape and one place to change.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/api/src/modules/activities/activities.repository.ts', 'apps/api/src/modules/audit/audit.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='insertInto'][arguments.0.value=/^(activities|auditLog)$/]",
          message: 'Activity and audit rows go through recordActivity / recordActivities (modules/activities) or recordAudit (modules/audit); see ARCHITECTURE.md',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/*', '**/features/**', '**/app/*', '**/app/**'], message: 'lib/ and components/ are shared by every feature and import none of them; see ARCHITECTURE.md' }] }],
    },
  },
  ...layeredFeatures('apps/web/src/features', WEB_FEATURE_ORDER, 'feature'),
  {
    // Small rooms (ARCHITECTURE.md): a production file past 400 lines holds more than one thing.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // Tests read loosely-typed JSON bodies.
    files: ['**/*.test.ts', 'apps/api/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);

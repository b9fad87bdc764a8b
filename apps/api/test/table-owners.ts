import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/*
 * Which module owns each table of the Kysely `Database` (db/schema.ts, db/schema/*.ts), and a
 * scanner of the modules' query-builder calls against it (table-owners.test.ts, ARCHITECTURE.md
 * "A module's tables behind the module"). The owner writes its tables; any other module reads
 * or writes them through the owner's service.
 */

export const TABLE_OWNERS = {
  ledgerAccounts: 'ledger',
  ledgerTransactions: 'ledger',
  ledgerPostings: 'ledger',
  ledgerPendingCredits: 'ledger',
  walletBalances: 'ledger',
  idempotencyKeys: 'ledger',
  auditLog: 'audit',
  mailMessages: 'mail',
  notificationEvents: 'mail',
  sessions: 'sessions',
  activities: 'activities',
  users: 'users',
  emailVerificationTokens: 'users',
  loginAttempts: 'auth',
  loginChallenges: 'auth',
  passkeys: 'auth',
  passwordResetTokens: 'auth',
  recoveryCodes: 'auth',
  stepUpCodes: 'auth',
  stepUpUsage: 'auth',
  userTotp: 'auth',
  webauthnChallenges: 'auth',
  accounts: 'accounts',
  accountUsers: 'accounts',
  identityDocuments: 'accounts',
  transfers: 'transfers',
  bankWithdrawals: 'withdrawals',
  invoices: 'invoices',
  invoiceCounters: 'invoices',
  stores: 'stores',
  storeDocuments: 'stores',
  callbackDeliveries: 'callbacks',
  callbackAttempts: 'callbacks',
  payments: 'payments',
  paymentErrors: 'payments',
  refunds: 'payments',
  sandboxProcessorRecords: 'payments',
  paymentRequests: 'payment-requests',
  paymentRequestPayments: 'payment-requests',
  paymentRequestErrors: 'payment-requests',
  paymentRequestHolds: 'payment-requests',
  reconciliationRuns: 'reconciliation',
  reconciliationMismatches: 'reconciliation',
  statementMails: 'statements',
  operatorApprovals: 'operator',
} as const;

export type TableName = keyof typeof TABLE_OWNERS;

const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto']);
const JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin']);

export interface TableUse {
  /** Path under apps/api/src/modules, with forward slashes. */
  file: string;
  line: number;
  method: string;
  table: string;
}

function tableNames(argument: ts.Expression | undefined): string[] {
  if (argument === undefined) return [];
  if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) return [argument.text.split(/\s+as\s+/)[0]!.trim()];
  if (ts.isArrayLiteralExpression(argument)) return argument.elements.flatMap((element) => tableNames(element as ts.Expression));
  return [];
}

/** Every `x.selectFrom / insertInto / updateTable / deleteFrom / mergeInto / *Join('table')` call with a literal table name. */
export function tableUses(file: string, source: string): TableUse[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const uses: TableUse[] = [];
  const visit = (node: ts.Node): void => {
    // `db.selectFrom('x')`, and `selectFrom('x')` taken from the expression builder (`({ selectFrom }) => ...`).
    const callee = ts.isCallExpression(node) ? (ts.isPropertyAccessExpression(node.expression) ? node.expression.name : ts.isIdentifier(node.expression) ? node.expression : undefined) : undefined;
    if (ts.isCallExpression(node) && callee !== undefined) {
      const method = callee.text;
      if (method === 'selectFrom' || WRITES.has(method) || JOINS.has(method)) {
        const line = sourceFile.getLineAndCharacterOfPosition(callee.getStart(sourceFile)).line + 1;
        for (const table of tableNames(node.arguments[0])) uses.push({ file, line, method, table });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return uses;
}

export function moduleOf(file: string): string {
  return file.split('/')[0]!;
}

/**
 * The rule: a module writes only its own tables (anywhere in it); outside its own
 * `*.repository.ts` files it selects from its own tables only. A repository may select from or
 * join another module's table (a read model). Names that are not tables (CTEs) are not judged.
 */
export function violationOf(use: TableUse): string | null {
  const owner = (TABLE_OWNERS as Record<string, string>)[use.table];
  const module = moduleOf(use.file);
  if (owner === undefined || owner === module) return null;
  if (WRITES.has(use.method)) return `${use.file}: ${use.method}('${use.table}') writes ${owner}'s table`;
  if (use.method === 'selectFrom' && !use.file.endsWith('.repository.ts')) return `${use.file}: selectFrom('${use.table}') reads ${owner}'s table outside a repository`;
  return null;
}

export function violations(uses: TableUse[]): string[] {
  return uses.flatMap((use) => {
    const violation = violationOf(use);
    return violation === null ? [] : [violation];
  });
}

/** The non-test .ts files under a modules folder, as paths relative to it. */
export function moduleFiles(modulesDir: string): string[] {
  return (readdirSync(modulesDir, { recursive: true, encoding: 'utf8' }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
}

export function scanModules(modulesDir: string): TableUse[] {
  return moduleFiles(modulesDir).flatMap((file) => tableUses(file, readFileSync(path.join(modulesDir, file), 'utf8')));
}

/** The table names of `interface Database` and the `*Tables` interfaces it extends, read from the schema files. */
export function schemaTables(schemaFiles: string[]): string[] {
  const tables: string[] = [];
  for (const file of schemaFiles) {
    const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of sourceFile.statements) {
      if (!ts.isInterfaceDeclaration(statement)) continue;
      const name = statement.name.text;
      if (name !== 'Database' && !name.endsWith('Tables')) continue;
      for (const member of statement.members) {
        if (ts.isPropertySignature(member) && ts.isIdentifier(member.name)) tables.push(member.name.text);
      }
    }
  }
  return tables.sort();
}

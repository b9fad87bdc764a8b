#!/usr/bin/env node
// Lints the API reference as the server publishes it with Redocly (recommended) and Spectral
// (spectral:oas); fails on any error or warning. `npm run lint:openapi` (CI runs it).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = path.join(root, '.cache', 'openapi.json');
mkdirSync(path.dirname(documentPath), { recursive: true });

// A deployment's own address (not localhost, which Redocly rightly flags in a published document).
const env = { ...process.env, PUBLIC_URL: process.env.OPENAPI_PUBLIC_URL ?? 'https://pay.kestrel.test' };
const document = execFileSync('npx', ['tsx', 'src/openapi-cli.ts'], { cwd: path.join(root, 'apps/api'), env, maxBuffer: 64 * 1024 * 1024 });
writeFileSync(documentPath, document);
const relative = path.relative(root, documentPath);

let failed = false;
const redocly = spawnSync('npx', ['redocly', 'lint', relative, '--format=json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
try {
  const report = JSON.parse(redocly.stdout);
  const { errors = 0, warnings = 0 } = report.totals ?? {};
  for (const problem of report.problems ?? []) console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location?.[0]?.pointer ?? ''})`);
  console.log(`Redocly (recommended): ${errors} errors, ${warnings} warnings`);
  if (errors + warnings > 0) failed = true;
} catch {
  console.error(redocly.stdout, redocly.stderr);
  failed = true;
}

const spectral = spawnSync('npx', ['spectral', 'lint', relative, '--ruleset', '.spectral.yaml', '--fail-severity=hint', '--format=stylish'], { cwd: root, encoding: 'utf8' });
process.stdout.write(spectral.stdout);
console.log(`Spectral (spectral:oas): ${spectral.status === 0 ? '0 problems' : 'problems found'}`);
if (spectral.status !== 0) failed = true;

process.exit(failed ? 1 : 0);

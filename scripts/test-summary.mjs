// Prints a line per report and one closing line for CI, "N passed, N failed", from the JSON
// reports of the Vitest runs (PGlite, PostgreSQL, Node.js 24) and the Playwright run named on
// the command line. Exits non-zero when a report is missing or counts no test at all, so a
// silent runner cannot pass as green.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`test report missing: ${file}`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  let counts;
  if (typeof report.numPassedTests === 'number') {
    // Vitest's JSON reporter.
    counts = { passed: report.numPassedTests, failed: report.numFailedTests, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) };
  } else if (report.stats) {
    // Playwright's JSON reporter.
    counts = { passed: report.stats.expected + (report.stats.flaky ?? 0), failed: report.stats.unexpected, skipped: report.stats.skipped ?? 0 };
  } else {
    console.error(`unknown test report format: ${file}`);
    process.exit(1);
  }
  console.log(`${path.basename(file, '.json')}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
  if (counts.passed === 0) {
    console.error(`no test passed in ${file}`);
    failed += 1;
  }
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed === 0 || failed > 0) process.exit(1);

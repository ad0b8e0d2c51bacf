// Adds up the JSON reports in a folder (Vitest's and Playwright's) and prints the plain closing
// line CI reads: "tests: N passed, N failed, N skipped".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

const [dir, ...expected] = process.argv.slice(2);
if (!dir) throw new Error('usage: test-summary <report dir> [expected report names...]');

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const name of expected) {
  if (!existsSync(path.join(dir, name))) {
    console.error(`missing test report ${name}: that run did not finish`);
    totals.failed += 1;
  }
}
for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []) {
  const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as
    VitestReport | PlaywrightReport;
  if ('stats' in report) {
    totals.passed += report.stats.expected + report.stats.flaky;
    totals.failed += report.stats.unexpected;
    totals.skipped += report.stats.skipped;
  } else {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  }
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);

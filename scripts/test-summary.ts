// Adds up the JSON reports in a folder (Vitest's and Playwright's) and prints the plain closing
// line CI reads: "tests: N passed, N failed, N skipped". The failed tests are named above it, so
// the tail of a CI log says what failed, not only how many.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}
interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: {
    title: string;
    tests: { status: string; results?: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
}

const [dir, ...expected] = process.argv.slice(2);
if (!dir) throw new Error('usage: test-summary <report dir> [expected report names...]');

const firstLine = (text: string | undefined): string =>
  stripVTControlCharacters(text ?? '')
    .split('\n')
    .find((line) => line.trim()) ?? '';

const failedTestsOf = (file: NonNullable<VitestReport['testResults']>[number]) =>
  (file.assertionResults ?? []).filter((test) => test.status === 'failed');

/**
 * Files that failed with no failed test: they failed to load, or in a hook (a beforeAll), which
 * leaves their tests skipped. Vitest's own count of failed tests leaves them out: each counts one.
 */
const failedOutsideTests = (report: VitestReport) =>
  (report.testResults ?? []).filter(
    (file) => failedTestsOf(file).length === 0 && (file.status === 'failed' || file.message),
  );

function vitestFailures(report: VitestReport): string[] {
  return (report.testResults ?? []).flatMap((file) => {
    const name = path.relative(process.cwd(), file.name);
    const failed = failedTestsOf(file);
    if (failedOutsideTests({ ...report, testResults: [file] }).length > 0)
      return [
        `${name}: ${firstLine(file.message) || 'failed outside its tests (in a hook such as beforeAll: see its log)'}`,
      ];
    return failed.map(
      (test) => `${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
    );
  });
}

function playwrightFailures(suites: PlaywrightSuite[] = [], file = ''): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map((test) => {
          const error = test.results?.at(-1)?.error?.message;
          return `${suite.file ?? file} > ${spec.title}: ${firstLine(error)}`;
        }),
    ),
    ...playwrightFailures(suite.suites, suite.file ?? file),
  ]);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
for (const name of expected) {
  if (!existsSync(path.join(dir, name))) {
    failures.push(`missing test report ${name}: that run did not finish`);
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
    failures.push(...playwrightFailures(report.suites).map((line) => `${file}: ${line}`));
  } else {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests + failedOutsideTests(report).length;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    failures.push(...vitestFailures(report).map((line) => `${file}: ${line}`));
  }
}
for (const failure of failures) console.log(`FAILED ${failure.slice(0, 400)}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);

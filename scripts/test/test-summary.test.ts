// CI's closing line counts every failure: a test file that failed in a hook (its tests then read
// as skipped) or failed to load counts one, and is named.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../test-summary.ts');
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function summarise(reports: Record<string, unknown>): string[] {
  dir = mkdtempSync(path.join(tmpdir(), 'test-summary-'));
  for (const [name, report] of Object.entries(reports))
    writeFileSync(path.join(dir, name), JSON.stringify(report));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, dir], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split('\n');
}

const vitest = (testResults: unknown[], counts: { passed: number; failed: number }) => ({
  numPassedTests: counts.passed,
  numFailedTests: counts.failed,
  numPendingTests: 2,
  numTodoTests: 0,
  testResults,
});

describe('test-summary', () => {
  it('counts a file failed in its beforeAll, whose tests read as skipped, and names it', () => {
    const lines = summarise({
      'vitest-chaos.json': vitest(
        [
          {
            name: '/repo/chaos/test/fuzz.test.ts',
            status: 'failed',
            message: '',
            assertionResults: [
              { fullName: 'fuzz a', status: 'skipped' },
              { fullName: 'fuzz b', status: 'skipped' },
            ],
          },
          {
            name: '/repo/chaos/test/ok.test.ts',
            status: 'passed',
            assertionResults: [{ fullName: 'ok', status: 'passed' }],
          },
        ],
        { passed: 1, failed: 0 },
      ),
    });
    expect(lines.at(-1)).toBe('tests: 1 passed, 1 failed, 2 skipped');
    expect(lines[0]).toMatch(
      /^FAILED vitest-chaos\.json: .*fuzz\.test\.ts: failed outside its tests/,
    );
  });

  it('counts a failed test once, not its file again', () => {
    const lines = summarise({
      'vitest-unit.json': vitest(
        [
          {
            name: '/repo/a.test.ts',
            status: 'failed',
            assertionResults: [
              { fullName: 'a works', status: 'failed', failureMessages: ['AssertionError: no'] },
            ],
          },
        ],
        { passed: 0, failed: 1 },
      ),
    });
    expect(lines.at(-1)).toBe('tests: 0 passed, 1 failed, 2 skipped');
    expect(lines[0]).toMatch(/a\.test\.ts > a works: AssertionError: no$/);
  });
});

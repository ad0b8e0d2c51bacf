// A setup file (vitest.config.ts): the connector's JSON log lines, which go to stdout in
// production, are kept back under the test suite and printed only for a test that fails, with the
// lines logged since the previous test ended (its file's start-up included). Tests that read log
// lines pass a sink of their own and are not affected.
import { beforeEach } from 'vitest';
import { setDefaultLogSink } from '../../src/log/logger';

/** The most kept back at once: a long test's early lines give way to its last ones. */
const KEPT_LINES = 2_000;
let kept: string[] = [];

setDefaultLogSink((line) => {
  kept.push(line);
  if (kept.length > KEPT_LINES) kept = kept.slice(-KEPT_LINES);
});

beforeEach(({ onTestFinished }) => {
  // (vitest runs onTestFinished before onTestFailed: the state is read here)
  onTestFinished(({ task }) => {
    if (task.result?.state === 'fail' && kept.length > 0)
      console.log(`--- connector log lines ---\n${kept.join('\n')}`);
    kept = [];
  });
});

import path from 'node:path';
import { defineConfig } from 'vitest/config';

// TEST_REPORT_DIR (set by CI) adds a JSON report next to the console output, named after
// TEST_REPORT_NAME, which scripts/test-summary.ts adds up into the closing line.
const reportDir = process.env.TEST_REPORT_DIR;

// Each workspace with tests has its own vitest.config.ts; this runs them all as projects.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'scripts/vitest.config.ts',
    ],
    ...(reportDir
      ? {
          reporters: ['default', 'json'],
          outputFile: {
            json: path.resolve(reportDir, `vitest-${process.env.TEST_REPORT_NAME ?? 'run'}.json`),
          },
        }
      : {}),
  },
});

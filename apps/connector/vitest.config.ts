import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'connector',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // log lines printed for failing tests only
    setupFiles: ['test/support/quiet-logs.ts'],
    // one migrated PGlite folder that test files copy
    globalSetup: ['test/support/pglite-template.ts'],
    // Timeouts only catch hangs: the suite's projects share a 2-core CI machine, where a file's
    // first test (a database opening, a stack starting) can take several seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

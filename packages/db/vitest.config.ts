import { defineProject } from 'vitest/config';
import { includeForBackends } from '../../scripts/test-backends.ts';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'db',
    // a PostgreSQL-only pass runs the files that can reach PostgreSQL
    include: includeForBackends(import.meta.dirname, ['src/**/*.test.ts', 'test/**/*.test.ts']),
    environment: 'node',
    ...sharedTestOptions,
    // Opening a fresh PGlite (initdb in WebAssembly) and spawning child processes take seconds.
    globalSetup: ['test/global-setup.ts'],
  },
});

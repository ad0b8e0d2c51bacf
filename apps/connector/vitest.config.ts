import { defineProject } from 'vitest/config';
import { includeForBackends } from '../../scripts/test-backends.ts';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'connector',
    // a PostgreSQL-only pass runs the files that can reach PostgreSQL
    include: includeForBackends(import.meta.dirname, ['src/**/*.test.ts', 'test/**/*.test.ts']),
    environment: 'node',
    ...sharedTestOptions,
    // log lines printed for failing tests only
    setupFiles: ['test/support/quiet-logs.ts'],
    // one migrated PGlite folder, and PostgreSQL database, that test files copy
    globalSetup: ['test/support/database-templates.ts'],
  },
});

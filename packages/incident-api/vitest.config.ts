import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'incident-api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    ...sharedTestOptions,
    // Timeouts only catch hangs: the suite's projects share a 2-core CI machine, where a file's
    // first test (a database opening, a stack starting) can take several seconds.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

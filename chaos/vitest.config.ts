import { defineProject } from 'vitest/config';

// Not among the root projects: these runs take minutes and start whole stacks, so they run through
// `npm run test:chaos` (scripts/run-chaos.ts). --expose-gc lets the fuzz measure memory after a GC.
export default defineProject({
  test: {
    name: 'chaos',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    execArgv: ['--expose-gc'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

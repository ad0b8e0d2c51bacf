import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'scripts',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    ...sharedTestOptions,
  },
});

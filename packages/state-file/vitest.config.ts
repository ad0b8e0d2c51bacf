import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineProject({
  test: {
    name: 'state-file',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    ...sharedTestOptions,
  },
});

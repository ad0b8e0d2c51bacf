import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'sidebar-contract',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    ...sharedTestOptions,
  },
});

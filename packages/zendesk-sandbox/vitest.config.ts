import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  test: {
    name: 'zendesk-sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    ...sharedTestOptions,
  },
});

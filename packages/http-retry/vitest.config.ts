import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'http-retry',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

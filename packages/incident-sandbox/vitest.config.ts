import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'incident-sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'zendesk-api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

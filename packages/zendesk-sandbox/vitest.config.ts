import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'zendesk-sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

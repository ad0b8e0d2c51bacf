import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'threat-text',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

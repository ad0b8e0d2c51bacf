import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client-core',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});

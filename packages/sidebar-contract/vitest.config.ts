import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sidebar-contract',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'state-file',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sidebar',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});

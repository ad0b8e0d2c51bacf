import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'sidebar',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    ...sharedTestOptions,
    setupFiles: ['test/setup.ts'],
  },
});

import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'admin',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    ...sharedTestOptions,
    setupFiles: ['test/setup.ts'],
    // Garden in jsdom is slow to render, more so on a loaded CI machine.
    testTimeout: 20_000,
  },
});

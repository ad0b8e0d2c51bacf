import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  // ESM entries first: inlined CommonJS would require() React through Node and find React 17.
  // dedupe: the repository root hoists React 17; every import must get this workspace's React 18.
  resolve: {
    dedupe: ['react', 'react-dom', 'styled-components'],
    mainFields: ['module', 'jsnext:main', 'jsnext', 'main'],
  },
  test: {
    name: 'sidebar',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    // Garden in jsdom is slow to render, more so on a loaded CI machine.
    testTimeout: 20_000,
    // Inline so that Vite's resolver (with dedupe) serves React 18 to Garden and Testing Library
    // instead of Node picking the hoisted React 17.
    server: {
      deps: {
        inline: [
          /@zendeskgarden/,
          /@testing-library/,
          /styled-components/,
          /@floating-ui/,
          /@reach/,
          /downshift/,
          /react-merge-refs/,
          /react-transition-group/,
          /react-uid/,
          /use-resize-observer/,
        ],
      },
    },
  },
});

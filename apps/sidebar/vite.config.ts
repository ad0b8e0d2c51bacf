import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { zafAppFolder } from './scripts/zafAppFolder';

// The repository root hoists React 17 (a transitive dependency of another workspace);
// dedupe makes every import of React resolve to this workspace's React 18.
export const sharedResolve = {
  dedupe: ['react', 'react-dom', 'styled-components'],
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs so the app works under zcli's /<app_id>/assets/ prefix and Zendesk's CDN.
  base: './',
  plugins: [react(), zafAppFolder()],
  resolve: sharedResolve,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    rollupOptions: {
      input: { iframe: 'assets/iframe.html' },
    },
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { preloadUiChunk } from './scripts/preloadUiChunk.ts';
import { zafAppFolder } from './scripts/zafAppFolder.ts';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs so the app works under zcli's /<app_id>/assets/ prefix and Zendesk's CDN.
  base: './',
  plugins: [react(), preloadUiChunk('/src/app/main.tsx'), zafAppFolder()],
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

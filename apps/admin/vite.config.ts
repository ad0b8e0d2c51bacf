import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the connector at /admin/ under a CSP of script-src 'self': no inline script, so the
// module preload polyfill (an inline snippet in some set-ups) is off.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    modulePreload: { polyfill: false },
  },
});

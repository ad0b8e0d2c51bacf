import { posix } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The entry script loads the UI with `import()` so that it can start the ZAF handshake first; this
 * adds a `<link rel="modulepreload">` for that chunk to the page, so the browser fetches it in
 * parallel with the entry instead of after it has run. `uiModule` is the path suffix of the
 * dynamically imported module (locale chunks, also dynamic, are left to load on demand).
 */
export function preloadUiChunk(uiModule: string): Plugin {
  return {
    name: 'incident-desk:preload-ui-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return [];
        const ui = Object.values(ctx.bundle).find(
          (output) =>
            output.type === 'chunk' &&
            output.isDynamicEntry &&
            output.facadeModuleId?.endsWith(uiModule),
        );
        if (!ui) throw new Error(`no dynamically imported chunk for ${uiModule}`);
        const htmlDir = posix.dirname(ctx.path.replace(/^\//, ''));
        return [
          {
            tag: 'link',
            attrs: {
              rel: 'modulepreload',
              crossorigin: true,
              href: posix.relative(htmlDir, ui.fileName),
            },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

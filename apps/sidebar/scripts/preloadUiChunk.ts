import { posix } from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputChunk = Rollup.OutputChunk;

/**
 * The entry script loads the UI with `import()` so that it can start the ZAF handshake first; this
 * adds a `<link rel="modulepreload">` for that chunk and the chunks it imports (the contract's
 * schemas, which the entry also reads the first answer with) to the page, so the browser fetches
 * them in parallel with the entry instead of after it has run. `uiModule` is the path suffix of
 * the dynamically imported module (locale chunks, also dynamic, are left to load on demand).
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
          (output): output is OutputChunk =>
            output.type === 'chunk' &&
            output.isDynamicEntry &&
            output.facadeModuleId?.endsWith(uiModule) === true,
        );
        if (!ui) throw new Error(`no dynamically imported chunk for ${uiModule}`);
        const htmlDir = posix.dirname(ctx.path.replace(/^\//, ''));
        // what the entry imports statically, it loads (and Vite preloads) already
        const entry = ctx.chunk;
        const loaded = new Set([entry.fileName, ...entry.imports]);
        const needed = [ui.fileName, ...ui.imports.filter((file) => !loaded.has(file))];
        return needed.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: posix.relative(htmlDir, file) },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

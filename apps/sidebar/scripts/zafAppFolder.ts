import { mkdir, readdir, readFile, writeFile, copyFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { pngSquare } from './pngSquare';

const MARKETPLACE_KEYS = [
  'name',
  'description',
  'short_description',
  'long_description',
  'installation_instructions',
  'parameters',
] as const;

interface Options {
  manifestPath?: string;
  translationsDir?: string;
}

/**
 * Turns Vite's output into the folder layout ZAF tooling expects
 * (manifest.json, assets/, translations/): zcli apps:server and apps:package read it as is.
 * The UI strings stay bundled in the JS; translations/<locale>.json only carries the
 * marketplace keys (app.name, app.parameters...), as in zendesk/app_scaffolds.
 */
export function zafAppFolder(options: Options = {}): Plugin {
  const manifestPath =
    options.manifestPath ?? fileURLToPath(new URL('../../../manifest.json', import.meta.url));
  const translationsDir =
    options.translationsDir ?? fileURLToPath(new URL('../src/translations', import.meta.url));
  let outDir = '';
  return {
    name: 'incident-desk:zaf-app-folder',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await copyFile(manifestPath, join(outDir, 'manifest.json'));
      await mkdir(join(outDir, 'translations'), { recursive: true });
      for (const file of await readdir(translationsDir)) {
        if (!file.endsWith('.json')) continue;
        const all = JSON.parse(await readFile(join(translationsDir, file), 'utf8')) as {
          app?: Record<string, unknown>;
        };
        const app: Record<string, unknown> = {};
        for (const key of MARKETPLACE_KEYS) {
          if (all.app?.[key] !== undefined) app[key] = all.app[key];
        }
        await writeFile(
          join(outDir, 'translations', file),
          `${JSON.stringify({ app }, null, 2)}\n`,
        );
      }
      // Zendesk's app validation wants both logos for apps with a visible location.
      await writeFile(join(outDir, 'assets', 'logo.png'), pngSquare(320));
      await writeFile(join(outDir, 'assets', 'logo-small.png'), pngSquare(128));
    },
  };
}

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { LOGOS, renderLogo } from './renderLogos.ts';

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
  /** The connector the app's location points at. Default: CONNECTOR_PUBLIC_URL, else the manifest's. */
  connectorUrl?: string;
}

export const SIDEBAR_LOCATION_PATH = '/sidebar/app/assets/iframe.html';

/**
 * The manifest as packaged: the sidebar location is served by the connector (signedUrls), so its
 * absolute URL is the connector's public URL, written here at build time.
 */
export function packagedManifest(manifest: string, connectorUrl: string | undefined): string {
  if (!connectorUrl) return manifest;
  const parsed = JSON.parse(manifest) as {
    location: { support: { ticket_sidebar: { url: string } } };
  };
  const base = new URL(connectorUrl);
  if (base.protocol !== 'https:' && !['localhost', '127.0.0.1'].includes(base.hostname))
    throw new Error(`the connector URL ${connectorUrl} must be https (Zendesk loads it)`);
  parsed.location.support.ticket_sidebar.url = `${base.origin}${base.pathname.replace(/\/+$/, '')}${SIDEBAR_LOCATION_PATH}`;
  return `${JSON.stringify(parsed, null, 2)}\n`;
}

/**
 * Turns Vite's output into the folder layout ZAF tooling expects
 * (manifest.json, assets/, translations/): zcli apps:server and apps:package read it as is.
 * The UI strings stay bundled in the JS; translations/<locale>.json only carries the
 * marketplace keys (app.name, app.parameters...), as in zendesk/app_scaffolds. Those live in
 * src/translations/marketplace/, apart from the UI strings, so the listing's long texts never
 * weigh on the bundle the sidebar loads.
 */
export function zafAppFolder(options: Options = {}): Plugin {
  const manifestPath =
    options.manifestPath ?? fileURLToPath(new URL('../../../manifest.json', import.meta.url));
  const translationsDir =
    options.translationsDir ??
    fileURLToPath(new URL('../src/translations/marketplace', import.meta.url));
  let outDir = '';
  return {
    name: 'incident-desk:zaf-app-folder',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await writeFile(
        join(outDir, 'manifest.json'),
        packagedManifest(
          await readFile(manifestPath, 'utf8'),
          options.connectorUrl ?? process.env.CONNECTOR_PUBLIC_URL,
        ),
      );
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
      for (const { name, size } of LOGOS)
        await writeFile(join(outDir, 'assets', `${name}.png`), await renderLogo(name, size));
    },
  };
}

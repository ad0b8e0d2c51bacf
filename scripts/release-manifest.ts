// Writes the release's package.json (scripts/release.sh): the production dependencies of the
// connector and both sandboxes with the ranges their workspaces give, and the root's overrides, so
// `npm install --omit=dev` on the repository's lockfile installs those versions and nothing else.
//
//   tsx scripts/release-manifest.ts <release dir>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionDependencies, WORKSPACE_SCOPE } from './production-dependencies';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = ['apps/connector', 'packages/zendesk-sandbox', 'packages/incident-sandbox'];

const releaseDir = process.argv[2];
if (!releaseDir) throw new Error('usage: release-manifest.ts <release dir>');

const dependencies = new Map<string, string>();
for (const service of SERVICES) {
  for (const [name, range] of productionDependencies(path.join(root, service))) {
    if (name.startsWith(WORKSPACE_SCOPE)) continue;
    const known = dependencies.get(name);
    if (known !== undefined && known !== range) {
      throw new Error(`${name}: ${known} in one service, ${range} in another; align them`);
    }
    dependencies.set(name, range);
  }
}

const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: Record<string, string>;
  overrides?: Record<string, string>;
  '//'?: unknown;
};
const manifest = {
  name: 'incident-desk-release',
  private: true,
  type: 'module',
  engines: rootManifest.engines,
  scripts: {
    start: 'node --enable-source-maps apps/connector/dist/main.js',
  },
  dependencies: Object.fromEntries([...dependencies].sort(([a], [b]) => a.localeCompare(b))),
  ...(rootManifest.overrides ? { overrides: rootManifest.overrides } : {}),
};
writeFileSync(path.join(releaseDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// What a production install of a workspace provides: its dependencies and, through the workspace
// packages among them (which builds bundle in), theirs. The bundler refuses imports outside this
// set; the release's package.json lists it.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

export const WORKSPACE_SCOPE = '@incident-desk/';

interface PackageJson {
  dependencies?: Record<string, string>;
}

function dependenciesOf(dir: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
  return manifest.dependencies ?? {};
}

/** The folder of an installed package, looked up through node_modules folders as Node does. */
function installedPackageDir(fromDir: string, name: string): string {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (npm ci?)`);
  }
}

/** Name to version range, workspace packages included (their range is `*`). */
export function productionDependencies(workspaceDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (dir: string) => {
    for (const [name, range] of Object.entries(dependenciesOf(dir))) {
      if (found.has(name)) continue;
      found.set(name, range);
      if (name.startsWith(WORKSPACE_SCOPE)) {
        visit(installedPackageDir(dir, name));
      }
    }
  };
  visit(workspaceDir);
  return found;
}

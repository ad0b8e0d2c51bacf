// Runs every workspace benchmark (`apps/*/bench`, `packages/*/bench`, `e2e/bench`: `*.bench.ts`) in its
// own process, one after another so they do not compete for the two cores, and writes one report.
// Each benchmark prints a JSON object on its last line of output: its figures, with ratios against
// a baseline it measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function benchFiles(): string[] {
  const workspaces = ['apps', 'packages'].flatMap((group) =>
    readdirSync(path.join(root, group)).map((name) => path.join(root, group, name)),
  );
  const files: string[] = [];
  for (const workspace of [...workspaces, path.join(root, 'e2e')]) {
    const dir = path.join(workspace, 'bench');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith('.bench.ts')) files.push(path.join(dir, file));
    }
  }
  return files;
}

const only = process.argv[2];
const results: Record<string, unknown> = {};
let failed = false;
// matched against the path inside the repository, so a checkout's own folder names never match
for (const file of benchFiles().filter((f) => !only || path.relative(root, f).includes(only))) {
  const name = path.relative(root, file);
  console.log(`\n--- ${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: path.dirname(path.dirname(file)),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = run.stdout.trim().split('\n');
  process.stdout.write(lines.slice(0, -1).join('\n') + '\n');
  try {
    if (run.status !== 0) throw new Error(`exited ${run.status}`);
    results[name] = JSON.parse(lines.at(-1) ?? '');
    console.log(JSON.stringify(results[name], null, 2));
  } catch (error) {
    failed = true;
    results[name] = { error: String(error) };
    console.error(`${name} failed: ${String(error)}`);
  }
}

mkdirSync(path.join(root, 'bench-results'), { recursive: true });
const reportPath = path.join(root, 'bench-results', 'report.json');
writeFileSync(
  reportPath,
  JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2),
);
console.log(
  `\n${Object.keys(results).length} benchmark(s); report written to ${path.relative(root, reportPath)}`,
);
process.exit(failed ? 1 : 0);
